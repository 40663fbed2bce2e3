import { useLayoutEffect, useMemo } from 'react';
import { Link } from 'react-router';
import { rankOpenCases } from './boardOrder';
import { AlertBanner } from './AlertBanner';
import { CaseCard } from './CaseCard';
import { HistoryList } from './HistoryList';
import { useAcknowledge, useInboundBoard } from './queries';
import { useBoardUpdates } from './useBoardUpdates';
import { useSecondClock } from './clock';
import { markBoardCommit } from './marks';
import { useP1Alerts } from './useP1Alerts';
import { ArrivedLane } from '../arrival/ArrivedLane';
import { DivertedAwayList } from '../arrival/DivertedAwayList';
import { isInbound, isOffloading } from '../arrival/lanes';

/** One hospital's live board: alerts, the open cases in arrival order, and recent arrivals. */
export function InboundBoard({ hospitalId, soundOn }: { hospitalId: string; soundOn: boolean }) {
  useBoardUpdates(hospitalId);
  const board = useInboundBoard(hospitalId);
  const acknowledge = useAcknowledge(hospitalId);
  const now = useSecondClock();
  const { alerting, dismiss } = useP1Alerts(board.data?.open, soundOn);
  const location = board.data?.hospital.location ?? null;
  // Issue 15: an arrived truck leaves the Inbound lane for the Arrived lane until its hand-over.
  const allOpen = board.data?.open;
  const open = useMemo(() => allOpen?.filter(isInbound), [allOpen]);
  const history = board.data?.history;
  const offloading = useMemo(() => [...(allOpen ?? []), ...(history ?? [])].filter(isOffloading), [allOpen, history]);
  const handedOver = useMemo(() => history?.filter((c) => !isOffloading(c)) ?? [], [history]);
  const ranked = useMemo(() => (open ? rankOpenCases(open, location, now) : []), [open, location, now]);
  // After each board read is on screen (DOM committed): the render bench's and DevTools' end mark.
  const dataUpdatedAt = board.dataUpdatedAt;
  useLayoutEffect(() => {
    if (dataUpdatedAt > 0) markBoardCommit();
  }, [dataUpdatedAt]);

  if (board.isPending) return <p role="status">Loading the inbound board…</p>;
  if (board.isError) {
    return (
      <div role="alert" className="banner banner-error">
        {board.error.message}{' '}
        <button className="button" type="button" onClick={() => void board.refetch()}>
          Try again
        </button>
      </div>
    );
  }
  const alertingIds = new Set(alerting.map((c) => c.id));
  return (
    <>
      <AlertBanner
        cases={alerting}
        onAcknowledge={(caseId) => acknowledge.mutate(caseId)}
        onDismiss={dismiss}
        acknowledging={acknowledge.isPending}
      />
      {acknowledge.isError && (
        <div role="alert" className="banner banner-error">
          {acknowledge.error.message}
        </div>
      )}
      <section aria-labelledby={`inbound-${hospitalId}`} className="inbound">
        <h2 id={`inbound-${hospitalId}`} className="section-title">
          Inbound <span className="section-count">{ranked.length}</span>
          <span className="section-note">
            ETA and distance (straight line) are estimates from the crew’s last position.
          </span>
        </h2>
        {ranked.length === 0 ? (
          <p className="empty">No ambulances inbound to {board.data.hospital.name} right now.</p>
        ) : (
          <ul className="case-grid">
            {ranked.map((r) => (
              <CaseCard
                key={r.card.id}
                hospitalId={hospitalId}
                card={r.card}
                etaMinutes={r.arrival?.etaMinutes ?? null}
                distanceKm={r.arrival?.distanceKm ?? null}
                alerting={alertingIds.has(r.card.id)}
              />
            ))}
          </ul>
        )}
      </section>
      <ArrivedLane hospitalId={hospitalId} cards={offloading} soundOn={soundOn} />
      <DivertedAwayList hospitalId={hospitalId} />
      <HistoryList hospitalId={hospitalId} cases={handedOver} />
      <Link className="report-link" to={`/report/${hospitalId}`}>
        Offload report (wall time, arrivals, notice lead time)
      </Link>
    </>
  );
}
