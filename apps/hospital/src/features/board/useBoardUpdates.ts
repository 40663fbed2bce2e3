import { useQueryClient } from '@tanstack/react-query';
import { useChannel } from '../../lib/realtime/realtime';
import { boardKeys } from './queries';

/**
 * Keeps a hospital's board (and any open case of it) fresh: every `case.updated` on `hospital:{id}`
 * refetches it, and so does every (re)subscription — after a lost connection the board is read again
 * rather than trusted to have missed nothing.
 */
export function useBoardUpdates(hospitalId: string): void {
  const queryClient = useQueryClient();
  useChannel(`hospital:${hospitalId}`, {
    onEvent(event) {
      if (event.type !== 'case.updated') return;
      void queryClient.invalidateQueries({ queryKey: boardKeys.board(hospitalId), exact: true });
      const caseId = (event.data as { caseId?: unknown } | null)?.caseId;
      if (typeof caseId === 'string') {
        void queryClient.invalidateQueries({ queryKey: boardKeys.detail(hospitalId, caseId) });
      }
    },
    onSubscribed() {
      void queryClient.invalidateQueries({ queryKey: ['inbound', hospitalId] });
    },
  });
}
