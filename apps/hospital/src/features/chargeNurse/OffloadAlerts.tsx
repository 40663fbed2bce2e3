import { Link } from 'react-router';
import type { OffloadAlert } from '@inbound/contract';
import { usePublishLockAlerts } from '../auth/lockAlerts';
import { useMe } from '../auth/queries';
import { playAlert } from '../board/beep';
import { formatClock } from '../board/format';
import { useMyOffloadAlerts } from './queries';
import './chargeNurse.css';

/**
 * The charge nurse's offload alerts, on every console screen they have open (issue 15, decision 0038):
 * each truck waiting past its hospital's threshold, with the way to the case. A new alert beeps; over
 * the idle lock only the count and the threshold show (decision 0035).
 */
export function OffloadAlerts() {
  const me = useMe();
  const userId = me.data?._id ?? null;
  const mine = useMyOffloadAlerts(userId, playAlert);
  const alerts = mine.data?.data ?? [];
  usePublishLockAlerts('offload-charge-nurse', lockSummary(alerts));
  return <OffloadAlertBar alerts={alerts} />;
}

/** Over the lock: per hospital, the threshold and how many wait — no case, no truck, no patient. */
export function lockSummary(alerts: readonly OffloadAlert[]) {
  const byHospital = new Map<string, OffloadAlert[]>();
  for (const a of alerts) byHospital.set(a.hospitalId, [...(byHospital.get(a.hospitalId) ?? []), a]);
  return [...byHospital.entries()].map(([hospitalId, list]) => ({
    key: `offload-charge-nurse-${hospitalId}`,
    title: `Charge nurse: offload over ${list[0]!.thresholdMinutes} min`,
    detail: `${list.length} ${list.length === 1 ? 'ambulance waits' : 'ambulances wait'} for handoff at ${list[0]!.hospitalName}`,
  }));
}

export function OffloadAlertBar({ alerts }: { alerts: readonly OffloadAlert[] }) {
  if (alerts.length === 0) return null;
  return (
    <div className="offload-alerts" role="alert" aria-label="Offload alerts">
      {alerts.map((a) => (
        <div key={`${a.caseId}-${a.arrivedAt}`} className="offload-alerts-item" data-testid="offload-alert">
          <strong>Charge nurse: offload over {a.thresholdMinutes} min</strong>
          <span>
            {a.truckName} (case {a.caseNumber}) at {a.hospitalName} · arrived {formatClock(a.arrivedAt)}
          </span>
          <Link className="button button-small" to={`/case/${a.hospitalId}/${a.caseId}`}>
            Open case
          </Link>
        </div>
      ))}
    </div>
  );
}
