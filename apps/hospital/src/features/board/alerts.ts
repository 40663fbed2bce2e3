import type { BoardCase } from '@inbound/contract';

/** An unacknowledged priority-1 case alerts again this often until someone acknowledges it. */
export const P1_REMINDER_MS = 2 * 60_000;

export type AlertLog = ReadonlyMap<string, number>;

/**
 * The priority-1 cases that must alert now: open, not acknowledged, and either never alerted on this
 * screen or last alerted `P1_REMINDER_MS` ago or more.
 */
export function dueAlerts(open: readonly BoardCase[], log: AlertLog, now: number): BoardCase[] {
  return open.filter((c) => {
    if (c.complaint?.priority !== 1 || c.acknowledgement !== null) return false;
    const last = log.get(c.id);
    return last === undefined || now - last >= P1_REMINDER_MS;
  });
}
