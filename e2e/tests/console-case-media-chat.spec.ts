/**
 * Issue 5 items 3 and 7, issue 6 item 5: the console's case detail with the crew's media, the chat both
 * ways and the crew's feedback. medic1's case to Riverside Regional gets a photo, an EKG, a video
 * (H.264 + Opus, as Chromium records it) and a voice memo (WebM/Opus) through the media API, made here
 * with ffmpeg; ed1 opens the detail: the EKG opens full screen and zooms, the video and the voice memo
 * play (converted by the server to MP4/AAC and MP3), a crew message appears live, ed1's reply reaches
 * the crew (and the crew's message reads "read"), and the crew's rating appears. Screenshots of the
 * detail at 1280×800 and 1920×1080 go to e2e/.artifacts/screens/.
 */
import { expect, test } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { authorizationHeader } from '@inbound/contract';
import { apiToken } from '../support/cases';
import { consolePage, playMedia } from '../support/console';
import { snap } from '../support/crew';
import { hospitals, teams, users } from '../support/demo';
import { SEED } from '../support/realtime';

const RIVERSIDE = SEED.riversideRegional;

interface Files {
  photo: Buffer;
  ekg: Buffer;
  video: Buffer;
  voice: Buffer;
}

/** Test recordings, as a crew device sends them (ffmpeg's synthetic sources). */
function makeFiles(): Files {
  const dir = mkdtempSync(path.join(tmpdir(), 'inbound-e2e-media-'));
  const ffmpeg = (args: string[]) =>
    execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], { stdio: 'pipe' });
  try {
    const file = (name: string) => path.join(dir, name);
    ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=1280x960:rate=1', '-frames:v', '1', file('photo.jpg')]);
    // A 12-lead stand-in: a fine grid with a trace, where zoom matters.
    ffmpeg([
      '-f',
      'lavfi',
      '-i',
      'color=c=0xfff4f4:size=1440x1080,drawgrid=w=12:h=12:t=1:c=0xf4a0a0,drawgrid=w=60:h=60:t=2:c=0xd05050',
      '-f',
      'lavfi',
      '-i',
      'color=c=black:size=1440x1080',
      '-filter_complex',
      '[0:v][1:v]blend=all_expr=if(lt(abs(Y-(H/2+80*sin(X/18)))\\,3)\\,B\\,A)',
      '-frames:v',
      '1',
      file('ekg.jpg'),
    ]);
    ffmpeg([
      ...['-f', 'lavfi', '-i', 'testsrc=size=640x360:rate=25'],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'],
      ...['-t', '4', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'libopus'],
      ...['-f', 'mp4', file('video.mp4')],
    ]);
    ffmpeg([
      ...['-f', 'lavfi', '-i', 'sine=frequency=330:sample_rate=48000', '-t', '3'],
      ...['-c:a', 'libopus', '-f', 'webm', file('voice.webm')],
    ]);
    return {
      photo: readFileSync(file('photo.jpg')),
      ekg: readFileSync(file('ekg.jpg')),
      video: readFileSync(file('video.mp4')),
      voice: readFileSync(file('voice.webm')),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function crew(baseURL: string, token: string) {
  const headers = () => ({
    Authorization: authorizationHeader(token),
    'Idempotency-Key': randomUUID(),
    'Created-At': new Date().toISOString(),
  });
  async function json(method: string, url: string, body?: unknown): Promise<Record<string, unknown>> {
    const response = await fetch(`${baseURL}${url}`, {
      method,
      headers: { ...headers(), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(response.status, `${method} ${url}: ${await response.clone().text()}`).toBeLessThan(300);
    return (await response.json()) as Record<string, unknown>;
  }
  async function upload(caseId: string, type: string, data: Buffer): Promise<void> {
    const form = new FormData();
    form.append('type', type);
    form.append('data', new Blob([new Uint8Array(data)]), 'recording');
    const response = await fetch(`${baseURL}/media/twiage-cases/${caseId}/uploads`, {
      method: 'POST',
      headers: headers(),
      body: form,
    });
    expect(response.status, `upload ${type}: ${await response.clone().text()}`).toBe(201);
  }
  return { json, upload };
}

const chatBody = (message: string) => {
  const now = new Date().toISOString();
  return {
    clientCreatedAt: now,
    timestamp: now,
    deviceId: 'web_ems',
    source: 'web_ems',
    senderOrganization: teams.riverside,
    type: 'CHAT',
    message,
  };
};

test("the case detail plays the crew's media, zooms the EKG, chats both ways and lists feedback", async ({
  browser,
  baseURL,
}, testInfo) => {
  test.setTimeout(120_000);
  const files = makeFiles();
  const medic = crew(baseURL!, await apiToken(baseURL!, users.medic1.username));
  const started = await medic.json('POST', `/v4/twiageCases?placeholder-${Date.now()}`, {
    emsAgency: SEED.riversideAgency,
    truck: 'truck-riverside-medic-1',
    beganAt: new Date(Date.now() - 9 * 60_000).toISOString(),
  });
  const caseId = String(started.id);
  await medic.json('PATCH', `/v4/twiageCases/${caseId}`, { destinationHospital: RIVERSIDE });
  for (const change of [{ complaint: 'stroke' }, { age: 71, agePeriod: 3 }, { gender: 'M' }]) {
    await medic.json('PATCH', `/v4/twiageCases/${caseId}`, change);
  }
  await medic.json('POST', `/v4/twiageCases/${caseId}/locationUpdates`, { latitude: 41.44, longitude: -81.71 });
  await medic.upload(caseId, 'photo', files.photo);
  await medic.upload(caseId, 'ekg', files.ekg);
  await medic.upload(caseId, 'video', files.video);
  await medic.upload(caseId, 'voicememo', files.voice);
  await medic.json(
    'POST',
    `/notification/twiage-cases/${caseId}/chat-messages`,
    chatBody('Left-sided weakness, LKW 11:40'),
  );

  const ed = await consolePage(browser);
  await ed.goto(`/hospital/case/${RIVERSIDE}/${caseId}`);
  await expect(ed.getByRole('heading', { level: 1, name: /Stroke/ })).toBeVisible();
  const media = ed.getByRole('region', { name: 'Media' });
  await expect(media.getByRole('list', { name: 'Uploads' }).getByRole('listitem')).toHaveCount(4);
  for (const label of ['Photo', 'EKG', 'Video', 'Voice memo']) {
    await expect(media.locator('.media-type', { hasText: new RegExp(`^${label}$`) })).toBeVisible();
  }
  // The server converts the video and the memo; the panel turns "Converting…" into players by itself.
  await expect(media.getByText('Converting…')).toHaveCount(0, { timeout: 30_000 });
  await expect(media.locator('video')).toHaveCount(1);
  await expect(media.locator('audio')).toHaveCount(1);
  await expect(media.locator('.media-item-voicememo .media-length')).toHaveText(/^0:0[23]$/);

  // The EKG full screen: zoom with the button and the wheel, Esc closes.
  await media.getByRole('button', { name: /Open EKG from/ }).click();
  const viewer = ed.getByRole('dialog', { name: /EKG/ });
  await expect(viewer).toBeVisible();
  const image = viewer.getByTestId('viewer-image');
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1440);
  await viewer.getByRole('button', { name: 'Zoom in' }).click();
  await expect(viewer.getByTestId('viewer-scale')).toHaveText('150%');
  const box = await image.boundingBox();
  await ed.mouse.move(box!.x + box!.width / 2, box!.y + box!.height / 2);
  await ed.mouse.wheel(0, -600);
  await expect
    .poll(async () => Number.parseInt((await viewer.getByTestId('viewer-scale').textContent()) ?? '0', 10))
    .toBeGreaterThan(300);
  const zoomedWidth = (await image.boundingBox())!.width;
  expect(zoomedWidth).toBeGreaterThan(box!.width * 2);
  await snap(ed, testInfo, 'console-case-ekg-zoomed', { fullPage: false });
  await ed.keyboard.press('Escape');
  await expect(viewer).toBeHidden();

  // Video and voice memo play in the page (muted: headless autoplay rules).
  const video = await playMedia(ed, '.media-panel video');
  expect(video.readyState).toBeGreaterThanOrEqual(2);
  expect(video.duration).toBeGreaterThan(3.5);
  const memo = await playMedia(ed, '.media-panel audio');
  expect(memo.readyState).toBeGreaterThanOrEqual(2);
  expect(memo.duration).toBeGreaterThan(2.5);

  // Chat: the crew's first message is there; a new one arrives live.
  const chat = ed.getByRole('region', { name: 'Chat with the crew' });
  await expect(chat.getByText('Left-sided weakness, LKW 11:40')).toBeVisible();
  await expect(chat.getByText(users.medic1.displayName).first()).toBeVisible();
  const sentAt = Date.now();
  await medic.json('POST', `/notification/twiage-cases/${caseId}/chat-messages`, chatBody('Glucose 6.1, ETA 8 min'));
  await expect(chat.getByText('Glucose 6.1, ETA 8 min')).toBeVisible({ timeout: 3_000 });
  const liveMs = Date.now() - sentAt;
  testInfo.annotations.push({ type: 'crew message on screen', description: `${liveMs} ms` });
  expect(liveMs).toBeLessThan(1_000);

  // ed1 answers with Enter; the crew reads it through its API, and its own messages read "read".
  await chat.getByLabel('Message to the crew').fill('CT 2 is clear, stroke team in bay 3');
  await chat.getByLabel('Message to the crew').press('Enter');
  await expect(chat.getByText('CT 2 is clear, stroke team in bay 3')).toBeVisible();
  await expect(chat.locator('[data-state="sent"], [data-state="delivered"], [data-state="read"]')).toHaveCount(1);
  await expect
    .poll(async () => {
      const { messages } = (await medic.json('GET', `/notification/twiage-cases/${caseId}/chat-messages`)) as {
        messages: { content: string; source: string; senderOrganization: string; senderName: string; state: string }[];
      };
      return messages.map((m) => [m.content, m.source, m.senderOrganization, m.state]);
    })
    .toEqual([
      ['Left-sided weakness, LKW 11:40', 'web_ems', teams.riverside, 'read'],
      ['Glucose 6.1, ETA 8 min', 'web_ems', teams.riverside, 'read'],
      ['CT 2 is clear, stroke team in bay 3', 'web_hospital', hospitals.riversideRegional, 'sent'],
    ]);

  // The crew rates the hand-over: it shows in the detail without a reload.
  await medic.json('POST', `/v4/twiageCases/${caseId}/case-feedback`, {
    rating: 4,
    notes: 'Team met us at the door, CT straight away.',
    type: 'ems',
  });
  const feedback = ed.getByRole('region', { name: 'Crew feedback' });
  await expect(feedback.getByRole('img', { name: '4 out of 5 stars' })).toBeVisible();
  await expect(feedback.getByText('Team met us at the door, CT straight away.')).toBeVisible();
  await expect(feedback.getByText(new RegExp(`${users.medic1.displayName} · ${teams.riverside}`))).toBeVisible();

  await ed.evaluate(() => window.scrollTo(0, 0));
  await snap(ed, testInfo, 'console-case-media-chat-1280', { fullPage: false });
  await snap(ed, testInfo, 'console-case-media-chat-1280-full');

  const large = await consolePage(browser, { width: 1920, height: 1080 });
  await large.goto(`/hospital/case/${RIVERSIDE}/${caseId}`);
  await expect(large.getByRole('region', { name: 'Media' }).locator('video')).toHaveCount(1);
  await expect(
    large.getByRole('region', { name: 'Crew feedback' }).getByRole('img', { name: '4 out of 5 stars' }),
  ).toBeVisible();
  await snap(large, testInfo, 'console-case-media-chat-1920', { fullPage: false });
  await large.context().close();
  await ed.context().close();
});
