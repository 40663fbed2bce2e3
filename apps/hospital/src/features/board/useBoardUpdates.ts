import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  HOSPITAL_CHANNEL_EVENTS,
  type BoardCase,
  type BoardCaseDetail,
  type BoardResponse,
  type DivertedAwayResponse,
} from '@inbound/contract';
import { useChannelMessages } from '../../lib/realtime/realtime';
import { applyCaseCard } from './boardCache';
import { markBoardNotice } from './marks';
import { boardKeys } from './queries';
import { arrivalKeys } from '../arrival/queries';
import { createRefreshCoalescer, type RefreshCoalescer } from './refreshCoalescer';

/**
 * Keeps a hospital's board (and any open case of it) fresh from `hospital:{id}`. A `case.updated`
 * carries the case's card after the change: that one card is replaced in the cached board (boardCache.ts)
 * — no board read — and the case's detail is marked stale (read again only when it is on screen). A
 * `case.card` (the unread count moved with a chat message or a read receipt: no case event) replaces
 * the card the same way; an open detail takes the new count as it stands — nothing else in it changed.
 *
 * The board is read again only when a message may have been missed: a (re)subscription that did not
 * resume without a hole, a message this console cannot read (a newer server's), or a change that came
 * while a read was running (its answer may predate the change). Those reads are coalesced
 * (refreshCoalescer.ts): a burst is one read, and a notice during a read is followed by another.
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

  const readBoardAgain = () => {
    if (coalescer.current) coalescer.current.notify();
    else void queryClient.invalidateQueries({ queryKey: boardKeys.board(hospitalId), exact: true });
  };

  /** One card as it is now, into the cached board; a read when there is none yet or one is running. */
  const applyCard = (caseId: string, card: BoardCase | null) => {
    markBoardNotice();
    const key = boardKeys.board(hospitalId);
    const board = queryClient.getQueryData<BoardResponse>(key);
    if (board) queryClient.setQueryData<BoardResponse>(key, applyCaseCard(board, caseId, card));
    if (!board || queryClient.isFetching({ queryKey: key, exact: true }) > 0) readBoardAgain();
  };

  useChannelMessages('hospital', hospitalId, {
    onMessage(message) {
      if (message.type === HOSPITAL_CHANNEL_EVENTS.caseCard) {
        const { caseId, card } = message.data;
        applyCard(caseId, card);
        queryClient.setQueryData<BoardCaseDetail>(boardKeys.detail(hospitalId, caseId), (detail) =>
          detail ? { ...detail, unreadChat: card.unreadChat } : detail,
        );
        return;
      }
      if (message.type !== HOSPITAL_CHANNEL_EVENTS.caseUpdated) return;
      const { caseId, card } = message.data;
      applyCard(caseId, card);
      void queryClient.invalidateQueries({ queryKey: boardKeys.detail(hospitalId, caseId) });
      // A case that left this board: the "diverted to …" list (issue 15) says where it went; one that
      // came back is on the board again and leaves that list.
      const awayKey = arrivalKeys.divertedAway(hospitalId);
      const listedAway = queryClient
        .getQueryData<DivertedAwayResponse>(awayKey)
        ?.divertedAway.some((row) => row.caseId === caseId);
      if (card === null || listedAway) void queryClient.invalidateQueries({ queryKey: awayKey });
    },
    onUnreadable(event) {
      if (event.type !== HOSPITAL_CHANNEL_EVENTS.caseUpdated && event.type !== HOSPITAL_CHANNEL_EVENTS.caseCard) return;
      markBoardNotice();
      readBoardAgain();
    },
    onSubscribed({ resumed }) {
      if (resumed) return;
      readBoardAgain();
      // The open case details of this hospital (['inbound', id, caseId]); the board itself goes above.
      void queryClient.invalidateQueries({
        predicate: ({ queryKey }) => queryKey.length === 3 && queryKey[0] === 'inbound' && queryKey[1] === hospitalId,
      });
    },
  });
}
