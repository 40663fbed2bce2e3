import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BoardCase, BoardCaseDetail, BoardResponse } from '@inbound/contract';
import { api } from '../../lib/client';
import { markBoardData, markBoardRead } from './marks';

export const hospitalKeys = {
  all: ['hospitals'] as const,
  detail: (id: string) => [...hospitalKeys.all, id] as const,
};

export const boardKeys = {
  board: (hospitalId: string) => ['inbound', hospitalId] as const,
  detail: (hospitalId: string, caseId: string) => ['inbound', hospitalId, caseId] as const,
};

/** The hospitals the signed-in user staffs, one query each (a user usually staffs one ED). */
export function useHospitals(ids: readonly string[]) {
  return useQueries({
    queries: ids.map((id) => ({
      queryKey: hospitalKeys.detail(id),
      queryFn: () => api('hospital', { params: { id } }),
    })),
  });
}

/** The inbound board; refetched by the real-time notices (see useBoardUpdates), not by polling. */
export function useInboundBoard(hospitalId: string) {
  return useQuery({
    queryKey: boardKeys.board(hospitalId),
    queryFn: async () => {
      markBoardRead();
      const board = await api('inboundBoard', { params: { id: hospitalId } });
      markBoardData();
      return board;
    },
  });
}

export function useInboundCase(hospitalId: string, caseId: string) {
  return useQuery({
    queryKey: boardKeys.detail(hospitalId, caseId),
    queryFn: () => api('inboundCase', { params: { id: hospitalId, caseId } }),
  });
}

export function useAcknowledge(hospitalId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (caseId: string) => api('acknowledgeCase', { params: { id: hospitalId, caseId } }),
    // The answer is the acknowledgement: set on the card and the open case, nothing read again (the
    // hospital channel brings the same change to every other console).
    onSuccess: ({ acknowledgement }, caseId) => {
      queryClient.setQueryData<BoardResponse>(boardKeys.board(hospitalId), (board) =>
        board ? mapCard(board, caseId, (card) => ({ ...card, acknowledgement })) : board,
      );
      queryClient.setQueryData<BoardCaseDetail>(boardKeys.detail(hospitalId, caseId), (detail) =>
        detail ? { ...detail, acknowledgement } : detail,
      );
    },
  });
}

function mapCard(board: BoardResponse, caseId: string, change: (card: BoardCase) => BoardCase): BoardResponse {
  const apply = (cards: BoardCase[]) => cards.map((card) => (card.id === caseId ? change(card) : card));
  return { ...board, open: apply(board.open), history: apply(board.history) };
}
