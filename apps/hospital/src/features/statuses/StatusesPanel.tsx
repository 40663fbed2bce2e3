import { StatusesView } from './StatusesView';
import { useClearStatus, useHospitalStatuses, useSetStatus } from './queries';
import { useStatusUpdates } from './useStatusUpdates';

/** The live statuses panel of one hospital: what crews see when they choose a destination. */
export function StatusesPanel({ hospitalId }: { hospitalId: string }) {
  useStatusUpdates(hospitalId);
  const statuses = useHospitalStatuses(hospitalId);
  const setStatus = useSetStatus(hospitalId);
  const clearStatus = useClearStatus(hospitalId);

  if (statuses.isPending) return <p role="status">Loading hospital status…</p>;
  if (statuses.isError) {
    return (
      <div role="alert" className="banner banner-error">
        {statuses.error.message}{' '}
        <button className="button" type="button" onClick={() => void statuses.refetch()}>
          Try again
        </button>
      </div>
    );
  }
  const failure = setStatus.error ?? clearStatus.error;
  return (
    <StatusesView
      statuses={statuses.data.activeStatuses}
      onAdd={(body) => setStatus.mutate(body)}
      onClear={(statusId) => clearStatus.mutate(statusId)}
      adding={setStatus.isPending}
      clearingId={clearStatus.isPending ? (clearStatus.variables ?? null) : null}
      error={failure?.message ?? null}
    />
  );
}
