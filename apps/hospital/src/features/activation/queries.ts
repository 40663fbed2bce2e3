/**
 * Team activation in the console (issue 15 item 1): the hospital's teams, the activations of its
 * cases, the alerts waiting for the signed-in user, and the three actions (activate, stand down,
 * "on my way"). Live: a team event of a case (`case.updated` on `hospital:{id}` and `case:{id}`) or
 * an alert on `user:{me}` marks the matching lists stale, so they are read again.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ACTIVATION_CASE_EVENTS, type TeamActivation } from '@inbound/contract';
import { api } from '../../lib/client';
import { useChannelMessages } from '../../lib/realtime/realtime';

export const activationKeys = {
  all: ['activations'] as const,
  teams: (hospitalId: string) => ['activations', 'teams', hospitalId] as const,
  hospital: (hospitalId: string) => ['activations', 'hospital', hospitalId] as const,
  case: (hospitalId: string, caseId: string) => ['activations', 'case', hospitalId, caseId] as const,
  mine: () => ['activations', 'mine'] as const,
};

export const isTeamEvent = (type: string): boolean => (ACTIVATION_CASE_EVENTS as readonly string[]).includes(type);

export function useTeams(hospitalId: string | null) {
  return useQuery({
    queryKey: activationKeys.teams(hospitalId ?? ''),
    queryFn: () => api('hospitalTeams', { params: { id: hospitalId ?? '' } }),
    enabled: hospitalId !== null,
  });
}

/** The hospital's recent activations (proposals on the board), kept live over `hospital:{id}`. */
export function useHospitalActivations(hospitalId: string) {
  const queryClient = useQueryClient();
  useChannelMessages('hospital', hospitalId, {
    onMessage(message) {
      if (message.type === 'case.updated' && isTeamEvent(message.data.event.type)) {
        void queryClient.invalidateQueries({ queryKey: activationKeys.hospital(hospitalId) });
      }
    },
    onSubscribed() {
      void queryClient.invalidateQueries({ queryKey: activationKeys.hospital(hospitalId) });
    },
  });
  return useQuery({
    queryKey: activationKeys.hospital(hospitalId),
    queryFn: () => api('hospitalActivations', { params: { id: hospitalId } }),
  });
}

/** One case's activations, kept live over `case:{id}`. */
export function useCaseActivations(hospitalId: string, caseId: string) {
  const queryClient = useQueryClient();
  const key = activationKeys.case(hospitalId, caseId);
  useChannelMessages('case', caseId, {
    onMessage(message) {
      if (message.type === 'case.updated' && isTeamEvent(message.data.event.type)) {
        void queryClient.invalidateQueries({ queryKey: key });
      }
    },
    onSubscribed() {
      void queryClient.invalidateQueries({ queryKey: key });
    },
  });
  return useQuery({ queryKey: key, queryFn: () => api('caseActivations', { params: { id: hospitalId, caseId } }) });
}

/** Alerts waiting for the signed-in user: read at start and whenever `user:{me}` brings one. */
export function useMyActivations(userId: string | null, onAlert: () => void) {
  const queryClient = useQueryClient();
  useChannelMessages('user', userId, {
    onMessage(message) {
      if (message.type === 'team.alert') {
        // A stand down is no alert: the bar drops it, silently.
        if (message.data.reason !== 'stoodDown') onAlert();
        void queryClient.invalidateQueries({ queryKey: activationKeys.mine() });
      }
    },
    onSubscribed() {
      void queryClient.invalidateQueries({ queryKey: activationKeys.mine() });
    },
  });
  return useQuery({ queryKey: activationKeys.mine(), queryFn: () => api('myActivations'), enabled: userId !== null });
}

function useRefresh() {
  const queryClient = useQueryClient();
  return (activation: TeamActivation) => {
    void queryClient.invalidateQueries({ queryKey: activationKeys.all });
    return activation;
  };
}

export function useActivateTeam(hospitalId: string, caseId: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (teamId: string) => api('activateTeam', { params: { id: hospitalId, caseId }, body: { teamId } }),
    onSuccess: refresh,
  });
}

export function useStandDown(hospitalId: string, caseId: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (activationId: string) =>
      api('standDownActivation', { params: { id: hospitalId, caseId, activationId } }),
    onSuccess: refresh,
  });
}

export function useAcknowledgeActivation() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (activationId: string) => api('acknowledgeActivation', { params: { activationId } }),
    onSuccess: refresh,
  });
}

/** The board's proposal: activate a team for one of its cases. */
export function useActivateTeamFor(hospitalId: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ caseId, teamId }: { caseId: string; teamId: string }) =>
      api('activateTeam', { params: { id: hospitalId, caseId }, body: { teamId } }),
    onSuccess: refresh,
  });
}
