import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ArrivalStateResponse, BoardCase, BoardCaseDetail, BoardResponse } from '@inbound/contract';
import { api } from '../../lib/client';
import { boardKeys } from '../board/queries';

export const arrivalKeys = {
  settings: (hospitalId: string) => ['arrival', 'settings', hospitalId] as const,
  divertedAway: (hospitalId: string) => ['arrival', 'divertedAway', hospitalId] as const,
  report: (hospitalId: string, from: string, to: string, tz: string) =>
    ['arrival', 'report', hospitalId, from, to, tz] as const,
};

export function useArrivalSettings(hospitalId: string) {
  return useQuery({
    queryKey: arrivalKeys.settings(hospitalId),
    queryFn: () => api('arrivalSettings', { params: { id: hospitalId } }),
    staleTime: 5 * 60_000,
  });
}

/** Cases that left this board for another hospital; read again when the hospital channel says one left. */
export function useDivertedAway(hospitalId: string) {
  return useQuery({
    queryKey: arrivalKeys.divertedAway(hospitalId),
    queryFn: () => api('divertedAway', { params: { id: hospitalId } }),
  });
}

export type ArrivalAction = { kind: 'arrived' } | { kind: 'handoff' } | { kind: 'divert'; reason: string };

/**
 * The ED's arrival, hand-over and diversion: the answer is the case's state, set on its card and its
 * detail at once (the hospital channel brings the same change to every other console).
 */
export function useArrivalAction(hospitalId: string, caseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: ArrivalAction): Promise<ArrivalStateResponse> => {
      const params = { id: hospitalId, caseId };
      if (action.kind === 'arrived') return api('markArrived', { params });
      if (action.kind === 'handoff') return api('acceptHandoff', { params });
      return api('divertCase', { params, body: { reason: action.reason } });
    },
    onSuccess: ({ arrival, handoff, diversion }) => {
      const change = (card: BoardCase): BoardCase =>
        card.id === caseId ? { ...card, arrival, handoff, diversion } : card;
      queryClient.setQueryData<BoardResponse>(boardKeys.board(hospitalId), (board) =>
        board ? { ...board, open: board.open.map(change), history: board.history.map(change) } : board,
      );
      queryClient.setQueryData<BoardCaseDetail>(boardKeys.detail(hospitalId, caseId), (detail) =>
        detail ? { ...detail, arrival, handoff, diversion } : detail,
      );
    },
  });
}
