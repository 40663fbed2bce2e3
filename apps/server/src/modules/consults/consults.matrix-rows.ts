/**
 * Live consult rows of the console authorisation matrix (console-authorization.matrix.test.ts): the
 * room is the case's — its crew and the destination's ED staff see, join and read it; presence,
 * signals and leaving are the participant's own (here ed1's); other hospitals' staff and organisation
 * admins (no patient data) are refused. Each request runs on a fresh case of its own.
 */
import { buildPath, JoinConsultResponse, routes, type RouteName } from '@inbound/contract';
import type { ChannelRow, MatrixFixture, MatrixRow } from '../../console-authorization.matrix.test.js';
import { IDS } from '../../seed/demo-data.js';
import { RIVERSIDE_TRUCK, send, setDestination, startCase } from '../../test/crew-api.js';

const path = (name: RouteName, params: Record<string, string>) => buildPath(routes[name].path, params);
const CASE_READERS = { ed: 200, edOther: 403, crew: 200, admin: 403 } as const;
const PARTICIPANT_ONLY = { ed: 200, edOther: 403, crew: 403, admin: 403 } as const;
const WHY_CREW = "the consult is the crew's too: it joins from its Media tab";

/** medic1's token, signed in once per test app (sign-ins are rate limited). */
const crewTokens = new WeakMap<MatrixFixture['t'], Promise<string>>();

async function freshCase(f: MatrixFixture): Promise<{ caseId: string; crewToken: string }> {
  let signedIn = crewTokens.get(f.t);
  if (!signedIn) {
    signedIn = f.t.signIn('medic1');
    crewTokens.set(f.t, signedIn);
  }
  const crewToken = await signedIn;
  const { id } = await startCase(f.t, crewToken, IDS.agencies.riverside, RIVERSIDE_TRUCK);
  await setDestination(f.t, crewToken, id, f.hospitalId);
  return { caseId: id, crewToken };
}

async function join(f: MatrixFixture, token: string, caseId: string) {
  const res = await send(f.t, 'POST', routes.joinConsult.path, token, { body: { caseId } });
  if (res.statusCode !== 201) throw new Error(`consult set-up failed: ${res.statusCode} ${res.body}`);
  return JoinConsultResponse.parse(res.json());
}

/** A consult of a fresh case with ed1 and the crew in it. */
async function consultWithEd(f: MatrixFixture) {
  const { caseId, crewToken } = await freshCase(f);
  const ed = await join(f, f.edToken, caseId);
  const crew = await join(f, crewToken, caseId);
  return { consultId: ed.consult.id, edParticipant: ed.participantId, crewParticipant: crew.participantId };
}

export const CONSULT_CALLS: MatrixRow[] = [
  {
    call: 'consultRoom',
    request: async (f) => ({ method: 'GET', url: path('consultRoom', { id: (await freshCase(f)).caseId }) }),
    expect: CASE_READERS,
    why: WHY_CREW,
  },
  {
    call: 'joinConsult',
    request: async (f) => ({
      method: 'POST',
      url: routes.joinConsult.path,
      body: { caseId: (await freshCase(f)).caseId },
    }),
    expect: { ed: 201, edOther: 403, crew: 201, admin: 403 },
    why: WHY_CREW,
  },
  {
    call: 'consultPresence',
    request: async (f) => {
      const c = await consultWithEd(f);
      return {
        method: 'POST',
        url: path('consultPresence', { consultId: c.consultId }),
        body: { participantId: c.edParticipant },
      };
    },
    expect: PARTICIPANT_ONLY,
  },
  {
    call: 'signalConsult',
    request: async (f) => {
      const c = await consultWithEd(f);
      return {
        method: 'POST',
        url: path('signalConsult', { consultId: c.consultId }),
        body: { from: c.edParticipant, to: c.crewParticipant, description: { type: 'offer', sdp: 'v=0\r\n' } },
      };
    },
    expect: { ed: 204, edOther: 403, crew: 403, admin: 403 },
  },
  {
    call: 'leaveConsult',
    request: async (f) => {
      const c = await consultWithEd(f);
      return {
        method: 'POST',
        url: path('leaveConsult', { consultId: c.consultId }),
        body: { participantId: c.edParticipant },
      };
    },
    expect: PARTICIPANT_ONLY,
  },
  {
    call: 'getConsult',
    request: async (f) => ({
      method: 'GET',
      url: path('getConsult', { consultId: (await consultWithEd(f)).consultId }),
    }),
    expect: CASE_READERS,
    why: WHY_CREW,
  },
];

export const CONSULT_CHANNELS: ChannelRow[] = [
  {
    name: 'consult:{id} (live consult room)',
    channel: async (f) => `consult:${(await consultWithEd(f)).consultId}`,
    subscribed: ['ed', 'crew'],
    why: WHY_CREW,
  },
];
