/**
 * Charge nurses in the console (issue 15, decision 0038): the hospital's list (admin sets it, ED staff
 * read it — the board keeps its offload banner for everyone only while nobody is designated) and the
 * offload alerts waiting for the signed-in charge nurse, read at start and whenever `user:{me}` brings
 * one; re-read every 30 s while some are shown, so an accepted hand-over takes its alert away.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/client';
import { useChannelMessages } from '../../lib/realtime/realtime';

/** How often the charge nurse's list is re-read while it shows trucks (their hand-overs end the alert). */
const OPEN_ALERTS_REFRESH_MS = 30_000;

export const chargeNurseKeys = {
  list: (hospitalId: string) => ['chargeNurses', hospitalId] as const,
  mine: () => ['offloadAlerts', 'mine'] as const,
};

export function useChargeNurses(hospitalId: string | null) {
  return useQuery({
    queryKey: chargeNurseKeys.list(hospitalId ?? ''),
    queryFn: () => api('chargeNurses', { params: { id: hospitalId ?? '' } }),
    enabled: hospitalId !== null,
  });
}

export function useSetChargeNurses(hospitalId: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userIds: string[]) => api('setChargeNurses', { params: { id: hospitalId ?? '' }, body: { userIds } }),
    onSuccess: (saved) => queryClient.setQueryData(chargeNurseKeys.list(hospitalId ?? ''), saved),
  });
}

/** The trucks waiting past the threshold at the user's charge-nurse hospitals; `onAlert` on each new alert. */
export function useMyOffloadAlerts(userId: string | null, onAlert: () => void) {
  const queryClient = useQueryClient();
  useChannelMessages('user', userId, {
    onMessage(message) {
      if (message.type === 'offload.alert') {
        onAlert();
        void queryClient.invalidateQueries({ queryKey: chargeNurseKeys.mine() });
      }
    },
    onSubscribed() {
      void queryClient.invalidateQueries({ queryKey: chargeNurseKeys.mine() });
    },
  });
  return useQuery({
    queryKey: chargeNurseKeys.mine(),
    queryFn: () => api('myOffloadAlerts'),
    enabled: userId !== null,
    refetchInterval: (query) => ((query.state.data?.data.length ?? 0) > 0 ? OPEN_ALERTS_REFRESH_MS : false),
  });
}
