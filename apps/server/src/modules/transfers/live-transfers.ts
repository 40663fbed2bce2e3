/**
 * For the cases module: whether a transfer of the case is live now (open, a request perhaps accepted,
 * its lifetime not run out) — closing the case is refused then (docs/decisions 0012). A read of the
 * transfers' repository only, so the cases service does not depend on the transfers service (which
 * depends on it); a transfer past its lifetime counts as ended here and is expired by the sweep.
 */
import type { Clock } from '../../clock.js';
import { isLive } from './transfer-states.js';
import type { TransfersRepository } from './transfers.repository.js';

export function createLiveTransfers(repo: Pick<TransfersRepository, 'findLiveForCase'>, clock: Clock) {
  return {
    async inProgress(caseId: string): Promise<boolean> {
      const live = await repo.findLiveForCase(caseId);
      return live !== null && isLive(live.status) && live.expires_at > clock.now().toISOString();
    },
  };
}

/** How often open case transfers past their lifetime are expired (and both crews told). */
export const TRANSFER_SWEEP_MS = 15_000;

/** Transfers also expire when read; the sweep tells both crews even when nobody asks. Answers its stop. */
export function startTransferSweep(
  transfers: { expireDue(): Promise<number> },
  onError: (error: unknown) => void,
): () => void {
  const sweep = setInterval(() => {
    transfers.expireDue().catch(onError);
  }, TRANSFER_SWEEP_MS);
  sweep.unref();
  return () => clearInterval(sweep);
}
