import { lazy, Suspense } from 'react';
import { Link, useParams } from 'react-router';
import { estimateArrival, type BoardCaseDetail, type DivertedAway } from '@inbound/contract';
import { formatAge, formatClock, formatDistance, formatElapsed, formatFieldValue, formatGender } from '../board/format';
import { PriorityBadge, priorityClass } from '../board/PriorityBadge';
import { useAcknowledge, useInboundCase } from '../board/queries';
import { useBoardUpdates } from '../board/useBoardUpdates';
import { useNow } from '../board/useNow';
import { ChatPanel } from './ChatPanel';
import { FeedbackPanel } from './FeedbackPanel';
import { ArrivalPanel } from '../arrival/ArrivalPanel';
import { useDivertedAway } from '../arrival/queries';
import { isNotFound, leftForElsewhere } from '../arrival/caseLeft';
import { MediaPanel } from './MediaPanel';
import { useCaseChannel } from './queries';
import { ActivationPanel } from '../activation/ActivationPanel';
import { ConsultPanel } from '../consult/ConsultPanel';
import { describeEvent } from './timeline';
import './case-detail.css';

const RouteMap = lazy(() => import('./RouteMap'));

/** Everything the crew sent about one case, live, with the ED's Acknowledge. Opening it is audited. */
export function CaseDetailPage() {
  const { hospitalId = '', caseId = '' } = useParams();
  useBoardUpdates(hospitalId);
  useCaseChannel(hospitalId, caseId);
  const detail = useInboundCase(hospitalId, caseId);
  const away = useDivertedAway(hospitalId);
  const now = useNow();

  if (detail.isPending) {
    return (
      <main className="centered" role="status">
        Loading the case…
      </main>
    );
  }
  if (detail.isError) {
    // The case left this hospital (diverted, or the crew chose another): no longer ours to read — say
    // where it goes rather than show the refusal.
    const left = leftForElsewhere(detail.error, caseId, away.data?.divertedAway);
    if (left) return <CaseLeft caseNumber={left.caseNumber} toHospitalName={left.toHospitalName} at={left.at} />;
    if (isNotFound(detail.error) && away.isFetching) {
      return (
        <main className="centered" role="status">
          Loading the case…
        </main>
      );
    }
    return (
      <main className="centered">
        <div role="alert" className="banner banner-error">
          {detail.error.message}
        </div>
        <Link className="button" to="/">
          Back to the board
        </Link>
      </main>
    );
  }
  return <CaseDetail hospitalId={hospitalId} c={detail.data} now={now} />;
}

function CaseLeft({ caseNumber, toHospitalName, at }: Pick<DivertedAway, 'caseNumber' | 'toHospitalName' | 'at'>) {
  return (
    <main className="centered case-left">
      <div role="status" className="banner banner-info" data-testid="case-left">
        <h1>Now going to {toHospitalName}</h1>
        <p>
          Case {caseNumber} is no longer coming here (since {formatClock(at)}). Its record is now for {toHospitalName}.
        </p>
      </div>
      <Link className="button" to="/">
        Back to the board
      </Link>
    </main>
  );
}

function CaseDetail({ hospitalId, c, now }: { hospitalId: string; c: BoardCaseDetail; now: number }) {
  const acknowledge = useAcknowledge(hospitalId);
  const arrival = estimateArrival(c.lastLocation, c.hospital.location, now);
  const priority = c.complaint?.priority ?? null;
  const who = [formatAge(c), formatGender(c.gender)].filter(Boolean).join(' · ');
  return (
    <div className="layout">
      <header className={`detail-header ${priorityClass(priority)}`}>
        <Link to="/" className="back-link">
          ← Inbound board
        </Link>
        <div className="detail-title">
          <PriorityBadge priority={priority} />
          <h1>
            {c.complaint?.name ?? 'Complaint not chosen yet'}
            {who && <span className="detail-who"> · {who}</span>}
          </h1>
          <p>
            Case {c.caseNumber} · {c.agency.name} · {c.truck.name} ({c.truck.isALS ? 'ALS' : 'BLS'}) · started{' '}
            {formatClock(c.startedAt)} ({formatElapsed(now - Date.parse(c.startedAt))} ago)
          </p>
        </div>
        <div className="detail-ack">
          {c.acknowledgement ? (
            <p className="ack ack-done" data-testid="acknowledged">
              ✓ Seen by {c.hospital.name} ED {formatClock(c.acknowledgement.at)} — {c.acknowledgement.byName}
            </p>
          ) : c.arrivedAt ? (
            <p className="ack">Arrived {formatClock(c.arrivedAt)}</p>
          ) : (
            <button
              type="button"
              className="button button-ack button-large"
              disabled={acknowledge.isPending}
              onClick={() => acknowledge.mutate(c.id)}
            >
              {acknowledge.isPending ? 'Acknowledging…' : 'Acknowledge'}
            </button>
          )}
          {acknowledge.isError && (
            <p role="alert" className="banner banner-error">
              {acknowledge.error.message}
            </p>
          )}
        </div>
      </header>
      <main className="case-columns">
        <div className="case-column case-column-facts">
          <ActivationPanel hospitalId={hospitalId} caseId={c.id} />
          {!c.arrivedAt && <ConsultPanel caseId={c.id} title={`Case ${c.caseNumber}`} />}
          <section className="panel" aria-labelledby="eta-title">
            <h2 id="eta-title">Arrival</h2>
            {c.arrivedAt ? (
              <p className="big-figure">Arrived {formatClock(c.arrivedAt)}</p>
            ) : arrival ? (
              <p className="big-figure">
                ~{arrival.etaMinutes} min
                <span className="big-figure-sub">{formatDistance(arrival.distanceKm)} straight line</span>
              </p>
            ) : (
              <p className="muted">No position reported yet.</p>
            )}
            <p className="muted small">
              Estimate: straight-line distance from the crew’s last position, not a road route.
            </p>
            {c.lastLocation && (
              <p className="coords">
                Last position {c.lastLocation.latitude.toFixed(5)}, {c.lastLocation.longitude.toFixed(5)} at{' '}
                {formatClock(c.lastLocation.recordedAt)} ({formatElapsed(now - Date.parse(c.lastLocation.recordedAt))}{' '}
                ago)
              </p>
            )}
          </section>

          <ArrivalPanel hospitalId={hospitalId} c={c} />

          <section className="panel" aria-labelledby="findings-title">
            <h2 id="findings-title">Findings</h2>
            {c.tags.length === 0 ? (
              <p className="muted">No findings recorded yet.</p>
            ) : (
              <ul className="findings">
                {c.tags.map((tag) => {
                  const history = c.tagHistory.find((h) => h.id === tag.id)?.values ?? [];
                  return (
                    <li key={tag.id}>
                      <span className="finding-name">{tag.name}</span>
                      {tag.fields.map((f) => (
                        <span key={f.key} className="finding-value">
                          {f.name && f.name !== tag.name ? `${f.name}: ` : ''}
                          <strong>{formatFieldValue(f, now)}</strong>
                        </span>
                      ))}
                      {history.length > 1 && (
                        <ol className="finding-history" aria-label={`${tag.name} history`}>
                          {history.map((h) => (
                            <li key={h.updatedAt}>
                              {formatClock(h.updatedAt)}: {h.fields.map((f) => formatFieldValue(f, now)).join(', ')}
                            </li>
                          ))}
                        </ol>
                      )}
                    </li>
                  );
                })}
              </ul>
            )}
            <h2>Patient</h2>
            <dl className="facts">
              <dt>Age</dt>
              <dd>{formatAge(c) ?? '—'}</dd>
              <dt>Gender</dt>
              <dd>{formatGender(c.gender) ?? '—'}</dd>
              {c.patientInfo.map((p) => (
                <FactRow key={p.key} name={p.name} value={p.value} />
              ))}
            </dl>
          </section>

          {c.route.length > 0 && (
            <section className="panel" aria-labelledby="route-title">
              <h2 id="route-title">Route so far</h2>
              <Suspense fallback={<p role="status">Loading the map…</p>}>
                <RouteMap route={c.route} hospital={c.hospital.location} />
              </Suspense>
            </section>
          )}

          <section className="panel timeline-panel" aria-labelledby="timeline-title">
            <h2 id="timeline-title">Timeline</h2>
            <ol className="timeline" tabIndex={0} aria-labelledby="timeline-title">
              {[...c.timeline].reverse().map((e) => (
                <li key={e.seq}>
                  <time dateTime={e.at}>{formatClock(e.at)}</time>
                  <span>{describeEvent(e)}</span>
                  <span className="muted small">{e.actorName}</span>
                </li>
              ))}
            </ol>
          </section>
          <FeedbackPanel hospitalId={hospitalId} caseId={c.id} />
        </div>
        <div className="case-column case-column-live">
          <ChatPanel
            hospitalId={hospitalId}
            caseId={c.id}
            hospitalName={c.hospital.name}
            closed={c.arrivedAt !== null}
          />
          <MediaPanel hospitalId={hospitalId} caseId={c.id} />
        </div>
      </main>
    </div>
  );
}

function FactRow({ name, value }: { name: string; value: string }) {
  return (
    <>
      <dt>{name}</dt>
      <dd>{value || '—'}</dd>
    </>
  );
}
