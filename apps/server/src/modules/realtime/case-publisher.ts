/**
 * After a case write has committed and its answer is ready: tell the case's subscribers and its
 * destination hospital's inbound board that it changed. The message names the change, not its content
 * (clients read the case with their own access); a hospital not on the platform gets nothing at all.
 * A destination change first has the case's subscribers checked again (the old hospital loses access).
 */
import type { RealtimePublisher } from './publisher.js';

export interface CaseChangeNotice {
  caseId: string;
  /** The committed event, when the write was one (null: the write changed nothing). */
  event: { id: string; seq: number; type: string; createdAt: string } | null;
}

export interface CasePublisherDeps {
  publisher: RealtimePublisher;
  /** The case's destination hospital and whether it is on the platform; null destination when none. */
  destination(caseId: string): Promise<{ hospitalId: string; onPlatform: boolean } | null>;
  logError(error: unknown): void;
}

/** The case event type of a destination hospital change (cases.service.ts). */
const DESTINATION_CHANGED = 'hospital';

export type PublishCaseChange = (notice: CaseChangeNotice) => void;

export function createCasePublisher({ publisher, destination, logError }: CasePublisherDeps): PublishCaseChange {
  async function publish(notice: CaseChangeNotice): Promise<void> {
    const event = { type: 'case.updated', data: notice };
    // A new destination ends the old hospital's access: its staff's subscriptions are checked again
    // before the change is published, so the message cannot reach them.
    if (notice.event?.type === DESTINATION_CHANGED) await publisher.reauthorize(`case:${notice.caseId}`);
    await publisher.publish(`case:${notice.caseId}`, event);
    const hospital = await destination(notice.caseId);
    if (hospital?.onPlatform) await publisher.publish(`hospital:${hospital.hospitalId}`, event);
  }
  // Not awaited by the write: its answer is committed and must not wait for (or fail with) the fan-out.
  return (notice) => {
    publish(notice).catch(logError);
  };
}
