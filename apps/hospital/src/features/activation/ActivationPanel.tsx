import { useState } from 'react';
import type { TeamActivation } from '@inbound/contract';
import { formatClock } from '../board/format';
import { useActivateTeam, useCaseActivations, useStandDown, useTeams } from './queries';
import './activation.css';

/**
 * The case detail's team activation: who was called, who is on the way and since when, and the ED's
 * buttons — activate a team of the hospital, stand one down (asked twice: it stops the alerts).
 */
export function ActivationPanel({ hospitalId, caseId }: { hospitalId: string; caseId: string }) {
  const teams = useTeams(hospitalId);
  const activations = useCaseActivations(hospitalId, caseId);
  const activate = useActivateTeam(hospitalId, caseId);
  const active = (activations.data?.data ?? []).filter((a) => a.status === 'active');
  const activatable = (teams.data?.data ?? []).filter((t) => !active.some((a) => a.teamId === t._id));
  const error = activate.error ?? activations.error ?? teams.error;
  // A hospital without teams sees nothing here (Administration → Teams is where they start).
  if (!error && (teams.data?.data.length ?? 0) === 0 && (activations.data?.data.length ?? 0) === 0) return null;
  return (
    <section className="panel activation-panel" aria-labelledby="activation-title">
      <h2 id="activation-title">Team activation</h2>
      {error && (
        <div role="alert" className="banner banner-error">
          {error.message}
        </div>
      )}
      {(activations.data?.data ?? []).map((a) => (
        <ActivationCard key={a._id} activation={a} hospitalId={hospitalId} caseId={caseId} />
      ))}
      {activatable.length > 0 && (
        <div className="activation-buttons">
          {activatable.map((t) => (
            <button
              key={t._id}
              type="button"
              className="button activation-button"
              disabled={activate.isPending}
              onClick={() => activate.mutate(t._id)}
            >
              Activate {t.name} team
            </button>
          ))}
        </div>
      )}
    </section>
  );
}

function ActivationCard({
  activation: a,
  hospitalId,
  caseId,
}: {
  activation: TeamActivation;
  hospitalId: string;
  caseId: string;
}) {
  const standDown = useStandDown(hospitalId, caseId);
  const [confirming, setConfirming] = useState(false);
  const coming = a.members.filter((m) => m.acknowledgedAt !== null).length;
  return (
    <article className={`activation-card${a.status === 'active' ? ' activation-live' : ''}`} data-testid="activation">
      <header className="activation-head">
        <h3>
          {a.teamName} team{' '}
          <span className="activation-state">
            {a.status === 'active' ? `${coming} of ${a.members.length} on the way` : 'stood down'}
          </span>
        </h3>
        <p className="muted">
          Activated {formatClock(a.activatedAt)} by {a.activatedByName}
          {a.escalatedAt && ` · escalated to backups ${formatClock(a.escalatedAt)}`}
          {a.stoodDownAt && ` · stood down ${formatClock(a.stoodDownAt)} by ${a.stoodDownByName ?? ''}`}
        </p>
      </header>
      <ul className="activation-members">
        {a.members.map((m) => (
          <li
            key={m.userId}
            className={m.acknowledgedAt ? 'member-coming' : m.alertedAt ? 'member-waiting' : 'member-idle'}
          >
            <span className="member-name">
              {m.name}
              {m.backup && <span className="member-backup"> (backup)</span>}
            </span>
            <span className="member-state">
              {m.acknowledgedAt
                ? `✓ On my way ${formatClock(m.acknowledgedAt)}`
                : m.alertedAt
                  ? a.status === 'active'
                    ? `Alerted ${formatClock(m.alertedAt)} · no answer yet`
                    : 'No answer'
                  : 'Not called'}
            </span>
          </li>
        ))}
      </ul>
      {a.status === 'active' &&
        (confirming ? (
          <div className="activation-buttons">
            <button type="button" className="button button-danger" onClick={() => standDown.mutate(a._id)}>
              Stand down the {a.teamName} team
            </button>
            <button type="button" className="button" onClick={() => setConfirming(false)}>
              Keep it active
            </button>
          </div>
        ) : (
          <button type="button" className="button" onClick={() => setConfirming(true)}>
            Stand down…
          </button>
        ))}
      {standDown.error && (
        <div role="alert" className="banner banner-error">
          {standDown.error.message}
        </div>
      )}
    </article>
  );
}
