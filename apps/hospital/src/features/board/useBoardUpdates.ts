import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { HOSPITAL_CHANNEL_EVENTS, parseChannelMessage } from '@inbound/contract';
import { useChannel } from '../../lib/realtime/realtime';
import { markBoardNotice } from './marks';
import { boardKeys } from './queries';
import { createRefreshCoalescer, type RefreshCoalescer } from './refreshCoalescer';

/**
 * Keeps a hospital's board (and any open case of it) fresh. `case.updated` notices on `hospital:{id}`
 * are coalesced (refreshCoalescer.ts): a burst — many crews' location reports — is one board read, and
 * a notice that arrives during a read is followed by another read, so no change is lost. A notice also
 * marks that case's detail stale (read again at once when it is on screen). Every (re)subscription reads
 * the board again rather than trusting that nothing was missed while disconnected.
 */
export function useBoardUpdates(hospitalId: string): void {
  const queryClient = useQueryClient();
  const coalescer = useRef<RefreshCoalescer | null>(null);
  useEffect(() => {
    const created = createRefreshCoalescer(() =>
      queryClient.invalidateQueries({ queryKey: boardKeys.board(hospitalId), exact: true }),
    );
    coalescer.current = created;
    return () => {
      created.dispose();
      if (coalescer.current === created) coalescer.current = null;
    };
  }, [queryClient, hospitalId]);

  const refreshBoard = () => {
    if (coalescer.current) coalescer.current.notify();
    else void queryClient.invalidateQueries({ queryKey: boardKeys.board(hospitalId), exact: true });
  };

  useChannel(`hospital:${hospitalId}`, {
    onEvent(event) {
      if (event.type !== HOSPITAL_CHANNEL_EVENTS.caseUpdated) return;
      markBoardNotice();
      refreshBoard();
      const message = parseChannelMessage('hospital', event);
      if (message?.type === HOSPITAL_CHANNEL_EVENTS.caseUpdated) {
        void queryClient.invalidateQueries({ queryKey: boardKeys.detail(hospitalId, message.data.caseId) });
      }
    },
    onSubscribed() {
      refreshBoard();
      // The open case details of this hospital (['inbound', id, caseId]); the board itself goes above.
      void queryClient.invalidateQueries({
        predicate: ({ queryKey }) => queryKey.length === 3 && queryKey[0] === 'inbound' && queryKey[1] === hospitalId,
      });
    },
  });
}
