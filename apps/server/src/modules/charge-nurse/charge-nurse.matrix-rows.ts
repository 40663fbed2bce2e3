/**
 * Charge nurses' rows of the console authorisation matrix (console-authorization.matrix.test.ts): the
 * list is read by the hospital's ED staff and org admins and set by org admins only; each user reads
 * their own offload alerts.
 */
import { buildPath, routes, type RouteName } from '@inbound/contract';
import type { MatrixRow } from '../../console-authorization.matrix.test.js';
import { IDS } from '../../seed/demo-data.js';

const path = (name: RouteName, params: Record<string, string>) => buildPath(routes[name].path, params);

export const CHARGE_NURSE_CALLS: MatrixRow[] = [
  {
    call: 'chargeNurses',
    request: (f) => ({ method: 'GET', url: path('chargeNurses', { id: f.hospitalId }) }),
    expect: { ed: 200, edOther: 403, crew: 403, admin: 200 },
    why: 'admins manage the hospital; its ED staff see who their charge nurses are',
  },
  {
    call: 'setChargeNurses',
    request: (f) => ({
      method: 'PUT',
      url: path('setChargeNurses', { id: f.hospitalId }),
      body: { userIds: [IDS.users.ed1] },
    }),
    expect: { ed: 403, edOther: 403, crew: 403, admin: 200 },
    why: 'designating charge nurses is administration (as with teams)',
  },
  {
    call: 'myOffloadAlerts',
    request: () => ({ method: 'GET', url: path('myOffloadAlerts', {}) }),
    expect: { ed: 200, edOther: 200, crew: 200, admin: 200 },
    why: "everyone reads their own alerts (a user who is nobody's charge nurse has none)",
  },
];
