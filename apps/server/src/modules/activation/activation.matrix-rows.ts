/**
 * Team activation's rows of the console authorisation matrix (console-authorization.matrix.test.ts):
 * teams are read by the hospital's ED staff and org admins and changed by org admins only; activations
 * are the destination ED's; "on my way" is the alerted member's; the crew reads its case's activations.
 * The set-ups write the team straight to the database (ed1, ED staff of Riverside, is its member).
 */
import { randomUUID } from 'node:crypto';
import { buildPath, routes, type RouteName } from '@inbound/contract';
import type { MatrixFixture, MatrixRow } from '../../console-authorization.matrix.test.js';
import { IDS } from '../../seed/demo-data.js';
import { send } from '../../test/crew-api.js';

const path = (name: RouteName, params: Record<string, string>) => buildPath(routes[name].path, params);
const TEAM_BODY = { kind: 'stroke', name: 'Stroke', members: [{ userId: IDS.users.ed1, backup: false }] };
const ADMIN_ONLY = { ed: 403, edOther: 403, crew: 403 } as const;

async function newTeam(f: MatrixFixture): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  await f.t.database.db
    .insertInto('hospital_teams')
    .values({ id, hospital_id: f.hospitalId, kind: 'stroke', name: 'Stroke', created_at: now, updated_at: now })
    .execute();
  await f.t.database.db
    .insertInto('hospital_team_members')
    .values({ team_id: id, user_id: IDS.users.ed1, backup: 0, position: 0 })
    .execute();
  return id;
}

async function newActivation(f: MatrixFixture): Promise<string> {
  const teamId = await newTeam(f);
  const res = await send(f.t, 'POST', path('activateTeam', { id: f.hospitalId, caseId: f.caseId }), f.edToken, {
    body: { teamId },
  });
  if (res.statusCode !== 201) throw new Error(`activation set-up failed: ${res.statusCode} ${res.body}`);
  return (res.json() as { _id: string })._id;
}

/** A fresh dispatch of Riverside's (each caller cancels its own). */
async function newDispatch(f: MatrixFixture): Promise<string> {
  const res = await send(f.t, 'POST', path('createDispatch', { id: f.hospitalId }), f.edToken, {
    body: { emsAgencyId: IDS.agencies.riverside, notes: 'Matrix dispatch' },
  });
  if (res.statusCode !== 201) throw new Error(`dispatch set-up failed: ${res.statusCode} ${res.body}`);
  return (res.json() as { dispatch: { _id: string } }).dispatch._id;
}

export const ACTIVATION_CALLS: MatrixRow[] = [
  // Dispatch cancel (issue 15 item 6) sits here with the rest of issue 15's calls.
  {
    call: 'cancelDispatch',
    request: async (f) => ({
      method: 'POST',
      url: path('cancelDispatch', { id: f.hospitalId, dispatchId: await newDispatch(f) }),
    }),
    expect: { ed: 200, edOther: 403, crew: 403, admin: 200 },
    why: 'admins may dispatch for a hospital, so they may cancel',
  },
  {
    call: 'hospitalTeams',
    request: (f) => ({ method: 'GET', url: path('hospitalTeams', { id: f.hospitalId }) }),
    expect: { ed: 200, edOther: 403, crew: 403, admin: 200 },
    why: 'org admins define the teams',
  },
  {
    call: 'createTeam',
    request: (f) => ({ method: 'POST', url: path('createTeam', { id: f.hospitalId }), body: TEAM_BODY }),
    expect: { ...ADMIN_ONLY, admin: 201 },
    why: 'org admins define the teams',
  },
  {
    call: 'updateTeam',
    request: async (f) => ({
      method: 'PUT',
      url: path('updateTeam', { id: f.hospitalId, teamId: await newTeam(f) }),
      body: TEAM_BODY,
    }),
    expect: { ...ADMIN_ONLY, admin: 200 },
    why: 'org admins define the teams',
  },
  {
    call: 'deleteTeam',
    request: async (f) => ({
      method: 'DELETE',
      url: path('deleteTeam', { id: f.hospitalId, teamId: await newTeam(f) }),
    }),
    expect: { ...ADMIN_ONLY, admin: 204 },
    why: 'org admins define the teams',
  },
  {
    call: 'hospitalActivations',
    request: (f) => ({ method: 'GET', url: path('hospitalActivations', { id: f.hospitalId }) }),
    expect: { ed: 200, edOther: 403, crew: 403, admin: 403 },
  },
  {
    call: 'caseActivations',
    request: (f) => ({ method: 'GET', url: path('caseActivations', { id: f.hospitalId, caseId: f.caseId }) }),
    expect: { ed: 200, edOther: 403, crew: 403, admin: 403 },
  },
  {
    call: 'activateTeam',
    request: async (f) => ({
      method: 'POST',
      url: path('activateTeam', { id: f.hospitalId, caseId: f.caseId }),
      body: { teamId: await newTeam(f) },
    }),
    expect: { ed: 201, edOther: 403, crew: 403, admin: 403 },
  },
  {
    call: 'standDownActivation',
    request: async (f) => ({
      method: 'POST',
      url: path('standDownActivation', { id: f.hospitalId, caseId: f.caseId, activationId: await newActivation(f) }),
    }),
    expect: { ed: 200, edOther: 403, crew: 403, admin: 403 },
  },
  {
    call: 'myActivations',
    request: () => ({ method: 'GET', url: path('myActivations', {}) }),
    expect: { ed: 200, edOther: 200, crew: 200, admin: 200 },
    why: 'everyone reads the alerts waiting for them (an empty list for most)',
  },
  {
    call: 'acknowledgeActivation',
    request: async (f) => ({
      method: 'POST',
      url: path('acknowledgeActivation', { activationId: await newActivation(f) }),
    }),
    expect: { ed: 200, edOther: 403, crew: 403, admin: 403 },
    why: 'only a member of the activation answers it (ed1 here)',
  },
  {
    call: 'crewCaseActivations',
    request: (f) => ({ method: 'GET', url: path('crewCaseActivations', { id: f.caseId }) }),
    expect: { ed: 200, edOther: 403, crew: 200, admin: 403 },
    why: "the case's crew sees who is on the way; the destination's staff read the case too",
  },
];
