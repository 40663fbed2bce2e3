import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  ARRIVAL_RADIUS_MAX_M,
  ARRIVAL_RADIUS_MIN_M,
  OFFLOAD_ALERT_MAX_MINUTES,
  OFFLOAD_ALERT_MIN_MINUTES,
  type ArrivalSettings,
} from '@inbound/contract';
import { api } from '../../lib/client';
import { TextField } from '../admin/TextField';
import { arrivalKeys, useArrivalSettings } from './queries';

/** The hospital admin's arrival settings (issue 15): geofence radius and offload alert threshold. */
export function ArrivalSettingsForm({ hospitalId }: { hospitalId: string }) {
  const settings = useArrivalSettings(hospitalId);
  if (settings.isPending) return <p role="status">Loading arrival settings…</p>;
  if (settings.isError) return <p role="alert">{settings.error.message}</p>;
  return <Editor key={hospitalId} hospitalId={hospitalId} initial={settings.data} />;
}

function Editor({ hospitalId, initial }: { hospitalId: string; initial: ArrivalSettings }) {
  const queryClient = useQueryClient();
  const [radius, setRadius] = useState(String(initial.arrivalRadiusM));
  const [minutes, setMinutes] = useState(String(initial.offloadAlertMinutes));
  const save = useMutation({
    mutationFn: (body: ArrivalSettings) => api('updateArrivalSettings', { params: { id: hospitalId }, body }),
    onSuccess: (saved) => queryClient.setQueryData(arrivalKeys.settings(hospitalId), saved),
  });
  const radiusN = Number(radius);
  const minutesN = Number(minutes);
  const radiusError =
    Number.isInteger(radiusN) && radiusN >= ARRIVAL_RADIUS_MIN_M && radiusN <= ARRIVAL_RADIUS_MAX_M
      ? undefined
      : `A whole number of metres, ${ARRIVAL_RADIUS_MIN_M}–${ARRIVAL_RADIUS_MAX_M}.`;
  const minutesError =
    Number.isInteger(minutesN) && minutesN >= OFFLOAD_ALERT_MIN_MINUTES && minutesN <= OFFLOAD_ALERT_MAX_MINUTES
      ? undefined
      : `A whole number of minutes, ${OFFLOAD_ALERT_MIN_MINUTES}–${OFFLOAD_ALERT_MAX_MINUTES}.`;
  return (
    <form
      className="admin-subform"
      aria-label="Arrival and offload"
      onSubmit={(e) => {
        e.preventDefault();
        if (!radiusError && !minutesError) save.mutate({ arrivalRadiusM: radiusN, offloadAlertMinutes: minutesN });
      }}
    >
      <h3>Arrival and offload</h3>
      <TextField
        id="arrival-radius"
        label="Arrival geofence radius (m)"
        value={radius}
        inputMode="numeric"
        error={radiusError}
        hint="A truck that stays a minute within this distance of the hospital's location is marked arrived."
        onChange={setRadius}
      />
      <TextField
        id="offload-alert"
        label="Offload alert after (minutes)"
        value={minutes}
        inputMode="numeric"
        error={minutesError}
        hint="Past this, an arrived ambulance's card turns amber and the charge nurse is alerted."
        onChange={setMinutes}
      />
      <button type="submit" className="button" disabled={save.isPending}>
        Save arrival settings
      </button>
      {save.isSuccess && <p role="status">Saved.</p>}
      {save.isError && (
        <p role="alert" className="field-error">
          {save.error.message}
        </p>
      )}
    </form>
  );
}
