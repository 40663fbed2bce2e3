/**
 * After a case write has committed and its answer is ready: tell the case's subscribers and its
 * destination hospital's inbound board that it changed. The message names the change, not its content
 * (clients read the case with their own access); a hospital not on the platform gets nothing at all.
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

export type PublishCaseChange = (notice: CaseChangeNotice) => void;

export function createCasePublisher({ publisher, destination, logError }: CasePublisherDeps): PublishCaseChange {
  async function publish(notice: CaseChangeNotice): Promise<void> {
    const event = { type: 'case.updated', data: notice };
    await publisher.publish(`case:${notice.caseId}`, event);
    const hospital = await destination(notice.caseId);
    if (hospital?.onPlatform) await publisher.publish(`hospital:${hospital.hospitalId}`, event);
  }
  // Not awaited by the write: its answer is committed and must not wait for (or fail with) the fan-out.
  return (notice) => {
    publish(notice).catch(logError);
  };
}
