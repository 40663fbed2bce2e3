/**
 * EKG monitor integration (spec §3 Case.monitorIntegration, Team.monitors; §7
 * `PATCH /monitor-integration/{type}/{caseId}`): shown on the tap like every case change, then carried
 * by the outbox.
 */
import { messages, type Monitor } from '@inbound/contract';
import { caseMutations } from '../../lib/outbox';
import type { StoredCase } from '../../lib/session';
import { recordChange } from '../case/mutations';

export function linkMonitor(monitor: Monitor, patientId: string): Promise<void> {
  const monitorIntegration = { monitorId: monitor._id, patientId, type: monitor.type };
  return recordChange(
    (c) => ({ ...c, monitorIntegration }),
    (id) => [caseMutations.monitor(id, monitor.type, { monitorId: monitor._id, patientId })],
  );
}

/**
 * The EKG button's line: the linked monitor ("LIFEPAK 15 — Medic 1 · PT ID 0042") or, when the team has
 * monitors and none is linked yet, 'Monitor Integration Available'. A team without monitors has nothing
 * to link, so nothing is said.
 */
export function monitorDescription(caseData: Pick<StoredCase, 'monitorIntegration'>, monitors: readonly Monitor[]) {
  const linked = caseData.monitorIntegration;
  if (linked) {
    const name = monitors.find((monitor) => monitor._id === linked.monitorId)?.name ?? linked.type;
    return `${name} · PT ID ${linked.patientId}`;
  }
  return monitors.length > 0 ? messages.monitorIntegrationAvailable : null;
}
