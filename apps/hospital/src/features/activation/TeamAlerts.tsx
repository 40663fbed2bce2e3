import { Link } from 'react-router';
import { activationMessages } from '@inbound/contract';
import { usePublishLockAlerts } from '../auth/lockAlerts';
import { useMe } from '../auth/queries';
import { roundLabel } from './alertRound';
import { playAlert } from '../board/beep';
import { formatClock } from '../board/format';
import { useAcknowledgeActivation, useMyActivations } from './queries';
import { PhoneAlertsButton } from './PhoneAlerts';
import './activation.css';

/**
 * The signed-in user's team alerts, on every console screen they have open: each activation that
 * called them and that they have not answered, with "On my way". A new alert (or a re-alert) beeps.
 */
export function TeamAlerts() {
  const me = useMe();
  const userId = me.data?._id ?? null;
  const mine = useMyActivations(userId, playAlert);
  const acknowledge = useAcknowledgeActivation();
  const waiting = mine.data?.data ?? [];
  const staffOf = new Set(me.data?.hospitalMemberships.map((h) => h._id) ?? []);
  // Over the idle lock: the summary only — team, hospital, round; no case number, no patient.
  usePublishLockAlerts(
    'team-alerts',
    waiting.map((a) => ({
      key: a._id,
      title: `${a.teamName} team activated`,
      detail: [`Case arriving at ${a.hospitalName}`, formatClock(a.activatedAt), roundLabel(a)]
        .filter(Boolean)
        .join(' · '),
    })),
  );
  if (waiting.length === 0) return null;
  return (
    <div className="team-alerts" role="alert" aria-live="assertive">
      {waiting.map((a) => (
        <div key={a._id} className="team-alert" data-testid="team-alert">
          <div className="team-alert-text">
            <strong className="team-alert-title">{a.teamName} team activated</strong>
            <span>
              Case {a.caseNumber} to {a.hospitalName} · {formatClock(a.activatedAt)} by {a.activatedByName}
              {roundLabel(a) && ` · ${roundLabel(a)}`}
            </span>
          </div>
          <div className="team-alert-actions">
            {staffOf.has(a.hospitalId) && (
              <Link className="button" to={`/case/${a.hospitalId}/${a.caseId}`}>
                Open case
              </Link>
            )}
            <button
              type="button"
              className="button button-primary"
              disabled={acknowledge.isPending}
              onClick={() => acknowledge.mutate(a._id)}
            >
              {activationMessages.onMyWay}
            </button>
          </div>
        </div>
      ))}
      <PhoneAlertsButton userId={userId} />
      {acknowledge.error && <p className="team-alert-error">{acknowledge.error.message}</p>}
    </div>
  );
}
