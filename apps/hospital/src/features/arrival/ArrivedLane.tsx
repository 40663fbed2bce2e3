import { memo, useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { DEFAULT_OFFLOAD_ALERT_MINUTES, type BoardCase } from '@inbound/contract';
import { formatAge, formatClock, formatGender } from '../board/format';
import { PriorityBadge, priorityClass } from '../board/PriorityBadge';
import { useSecondClock } from '../board/clock';
import { playAlert } from '../board/beep';
import { usePublishLockAlerts } from '../auth/lockAlerts';
import { ARRIVAL_SOURCE_LABEL, formatTimer, isOverThreshold } from './lanes';
import { useChargeNurses } from '../chargeNurse/queries';
import { useArrivalAction, useArrivalSettings } from './queries';
import './arrival.css';

/**
 * The board's Arrived lane (issue 15): trucks at the door whose hand-over the ED has not accepted yet,
 * each with its offload ("wall") timer and a one-tap Accept handoff. Past the hospital's threshold a
 * card turns amber. The charge-nurse alert goes to the designated charge nurses (server push and their
 * own alert bar, decision 0038); while the hospital has none, it stays here on every console of the
 * hospital (banner, and the sound once per case when it is on), so it reaches somebody.
 */
export function ArrivedLane({
  hospitalId,
  cards,
  soundOn,
}: {
  hospitalId: string;
  cards: BoardCase[];
  soundOn: boolean;
}) {
  const settings = useArrivalSettings(hospitalId);
  const threshold = settings.data?.offloadAlertMinutes ?? DEFAULT_OFFLOAD_ALERT_MINUTES;
  const now = useSecondClock();
  const chargeNurses = useChargeNurses(hospitalId);
  const designated = (chargeNurses.data?.chargeNurses.length ?? 0) > 0;
  const over = cards.filter((c) => isOverThreshold(c, now, threshold));
  const banner = designated ? [] : over;
  useOffloadAlertSound(banner, soundOn);
  // Over the idle lock: how many trucks wait past the threshold — no case, no patient.
  usePublishLockAlerts(
    `offload-${hospitalId}`,
    banner.length === 0
      ? []
      : [
          {
            key: `offload-${hospitalId}`,
            title: `Charge nurse: offload over ${threshold} min`,
            detail: `${banner.length} ${banner.length === 1 ? 'ambulance waits' : 'ambulances wait'} for handoff`,
          },
        ],
  );
  if (cards.length === 0) return null;
  const sorted = [...cards].sort((a, b) => Date.parse(a.arrival!.at) - Date.parse(b.arrival!.at));
  return (
    <section aria-labelledby={`arrived-${hospitalId}`} className="arrived-lane">
      {banner.length > 0 && (
        <div role="alert" className="banner offload-alert">
          <strong>Charge nurse: offload over {threshold} min</strong> —{' '}
          {banner.map((c) => `${c.truck.name} (case ${c.caseNumber})`).join(', ')}. Accept the hand-over or escalate.
        </div>
      )}
      <h2 id={`arrived-${hospitalId}`} className="section-title">
        Arrived — awaiting handoff <span className="section-count">{cards.length}</span>
        <span className="section-note">Offload time runs from arrival until the ED accepts transfer of care.</span>
      </h2>
      <ul className="case-grid">
        {sorted.map((card) => (
          <ArrivedCard key={card.id} hospitalId={hospitalId} card={card} threshold={threshold} />
        ))}
      </ul>
    </section>
  );
}

/** The sound once per case that crosses the threshold (not every second it stays over). */
function useOffloadAlertSound(over: BoardCase[], soundOn: boolean) {
  const alerted = useRef(new Set<string>());
  const ids = over.map((c) => c.id).join(',');
  useEffect(() => {
    const fresh = ids.split(',').filter((id) => id && !alerted.current.has(id));
    for (const id of fresh) alerted.current.add(id);
    if (fresh.length > 0 && soundOn) playAlert();
  }, [ids, soundOn]);
}

const ArrivedCard = memo(function ArrivedCard({
  hospitalId,
  card,
  threshold,
}: {
  hospitalId: string;
  card: BoardCase;
  threshold: number;
}) {
  const now = useSecondClock();
  const action = useArrivalAction(hospitalId, card.id);
  const arrival = card.arrival!;
  const amber = isOverThreshold(card, now, threshold);
  const priority = card.complaint?.priority ?? null;
  const who = [formatAge(card), formatGender(card.gender)].filter(Boolean).join(' · ');
  return (
    <li>
      <article
        className={`case-card arrived-card ${priorityClass(priority)}${amber ? ' offload-over' : ''}`}
        aria-label={`Arrived: ${card.complaint?.name ?? 'no complaint'}, case ${card.caseNumber}`}
        data-testid="arrived-card"
      >
        <div className="case-card-head">
          <PriorityBadge priority={priority} />
          <span className="offload-timer" data-testid="offload-timer" aria-label="Offload time">
            {formatTimer(now - Date.parse(arrival.at))}
          </span>
        </div>
        <h3 className="case-complaint">
          <Link to={`/case/${hospitalId}/${card.id}`}>{card.complaint?.name ?? 'Complaint not chosen yet'}</Link>
        </h3>
        <p className="case-patient">{who || 'Age and gender not given yet'}</p>
        <p className="muted">
          Arrived {formatClock(arrival.at)} {ARRIVAL_SOURCE_LABEL[arrival.source]}
          {arrival.byName ? ` (${arrival.byName})` : ''} · {card.agency.name} · {card.truck.name} · {card.caseNumber}
        </p>
        {amber && <p className="offload-over-note">Over {threshold} min: the charge nurse is alerted.</p>}
        <div className="arrived-actions">
          <button
            type="button"
            className="button button-primary"
            disabled={action.isPending}
            onClick={() => action.mutate({ kind: 'handoff' })}
          >
            Accept handoff
          </button>
          {action.isError && (
            <span role="alert" className="field-error">
              {action.error.message}
            </span>
          )}
        </div>
      </article>
    </li>
  );
});
