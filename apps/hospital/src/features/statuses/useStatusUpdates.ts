import { useQueryClient } from '@tanstack/react-query';
import { useChannel } from '../../lib/realtime/realtime';
import { statusKeys } from './queries';
import { activeStatusesFromEvent } from './statusEvent';

/**
 * Keeps the statuses panel live: a `hospital.status` notice on `hospital-status:{id}` carries the whole
 * active list, so it replaces the cached one; every (re)subscription reads the list again, since notices
 * sent while disconnected may be lost.
 */
export function useStatusUpdates(hospitalId: string): void {
  const queryClient = useQueryClient();
  useChannel(`hospital-status:${hospitalId}`, {
    onEvent(event) {
      const active = activeStatusesFromEvent(event, hospitalId);
      if (active) queryClient.setQueryData(statusKeys.active(hospitalId), active);
    },
    onSubscribed() {
      void queryClient.invalidateQueries({ queryKey: statusKeys.active(hospitalId) });
    },
  });
}
