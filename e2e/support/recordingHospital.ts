/**
 * A hospital whose department records its calls (spec §3 allowsToRecord), made through the admin API for
 * one test: its own agency (one truck, that hospital only), a crew member of that agency and an ED staff
 * member of that hospital, each with a password of its own. The demo hospitals stay unrecorded, so the
 * calls of tests running beside this one are not recorded.
 */
import { expect } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { authorizationHeader } from '@inbound/contract';
import { apiToken } from './cases';
import { users } from './demo';

export interface RecordingHospital {
  hospitalId: string;
  hospitalName: string;
  teamName: string;
  truckName: string;
  crew: { username: string; password: string };
  ed: { username: string; password: string };
}

async function call(baseURL: string, token: string, method: string, pathname: string, body?: unknown) {
  const response = await fetch(`${baseURL}${pathname}`, {
    method,
    headers: {
      Authorization: authorizationHeader(token),
      'Idempotency-Key': randomUUID(),
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status, `${method} ${pathname}: ${await response.clone().text()}`).toBeLessThan(300);
  return response.json() as Promise<Record<string, unknown>>;
}

/** Invites a user and changes the one-time password to one of its own, as the person would at first sign-in. */
async function invite(
  baseURL: string,
  admin: string,
  body: Record<string, unknown> & { username: string },
  client: 'ems' | 'hospital',
): Promise<{ username: string; password: string }> {
  const invited = (await call(baseURL, admin, 'POST', '/v4/admin/users', body)) as { oneTimePassword: string };
  const signIn = await fetch(`${baseURL}/v4/auth/signin`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      username: body.username,
      password: invited.oneTimePassword,
      twiageClient: client,
      platform: 'web',
    }),
  });
  expect(signIn.status, 'sign-in with the one-time password').toBe(200);
  const token = ((await signIn.json()) as { authorizationToken: { token: string } }).authorizationToken.token;
  const password = `Harbour-Tulip-${randomUUID()}`;
  await call(baseURL, token, 'POST', '/v4/users/password', {
    currentPassword: invited.oneTimePassword,
    newPassword: password,
    verifyPassword: password,
  });
  return { username: body.username, password };
}

export async function recordingHospital(baseURL: string): Promise<RecordingHospital> {
  const admin = await apiToken(baseURL, users.admin.username);
  const tag = randomUUID().slice(0, 8);
  const hospitalName = `Recording General ${tag}`;
  const hospital = (await call(baseURL, admin, 'POST', '/v4/admin/hospitals', {
    name: hospitalName,
    nonTwiage: false,
    edPhoneNumbers: [],
    supportedFeatures: [{ name: 'allowsToRecord', enabled: true }],
    location: null,
  })) as { id: string };
  const teamName = `Recording EMS ${tag}`;
  const agency = (await call(baseURL, admin, 'POST', '/v4/admin/agencies', {
    name: teamName,
    complaintSet: 'Standard ALS/BLS 2026',
    maxCaseLength: 240,
    hospitalIds: [hospital.id],
    monitors: [],
    emtLevels: [],
    patientInfoForm: null,
  })) as { id: string };
  const truckName = 'Medic 7';
  await call(baseURL, admin, 'POST', `/v4/admin/agencies/${agency.id}/trucks`, { name: truckName, isALS: true });
  const crew = await invite(
    baseURL,
    admin,
    {
      username: `crewrec${tag}`,
      displayName: 'Alex Rivera',
      kind: 'crew',
      agencies: [{ id: agency.id, role: 'member' }],
    },
    'ems',
  );
  const ed = await invite(
    baseURL,
    admin,
    { username: `edrec${tag}`, displayName: 'Robin Ellis', kind: 'edStaff', hospitals: [hospital.id] },
    'hospital',
  );
  return { hospitalId: hospital.id, hospitalName, teamName, truckName, crew, ed };
}

export interface ProbedAudio {
  codec: string;
  durationSeconds: number;
  /** The loudest sample, dBFS (−91 is digital silence). */
  maxVolumeDb: number;
}

/** ffprobe and ffmpeg's volumedetect on an audio file's bytes: what it is, how long, and that it is not silence. */
export function probeAudio(bytes: Buffer): ProbedAudio {
  const dir = mkdtempSync(path.join(tmpdir(), 'inbound-e2e-audio-'));
  try {
    const file = path.join(dir, 'recording');
    writeFileSync(file, bytes);
    const probe = JSON.parse(
      execFileSync(
        'ffprobe',
        ['-v', 'error', '-show_entries', 'stream=codec_name:format=duration', '-of', 'json', file],
        {
          encoding: 'utf8',
        },
      ),
    ) as { streams: { codec_name: string }[]; format: { duration: string } };
    // volumedetect reports on stderr.
    const volume = spawnSync('ffmpeg', ['-hide_banner', '-i', file, '-af', 'volumedetect', '-f', 'null', '-'], {
      encoding: 'utf8',
    }).stderr;
    return {
      codec: probe.streams[0]?.codec_name ?? '',
      durationSeconds: Number(probe.format.duration),
      maxVolumeDb: Number(/max_volume: (-?[\d.]+) dB/.exec(volume)?.[1] ?? Number.NaN),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
