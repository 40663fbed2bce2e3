import { lazy, Suspense } from 'react';
import type { Hospital } from '@inbound/contract';
import { maximizeConsult, useConsultView } from './consultState';

// The room (WebRTC, video, its screen) loads when a consult starts: the case screen's first JS stays small.
const ConsultScreen = lazy(() => import('./ConsultScreen').then((m) => ({ default: m.ConsultScreen })));

/**
 * The consult room over the case screen while a consult is on — kept mounted while minimised, so the
 * call goes on while the crew works the case (spec §2 / §4 "Live consult: started, minimized").
 */
export function ConsultHost({ destination }: { destination: Hospital | null }) {
  const { view, caseId } = useConsultView();
  if (view === 'none' || !caseId || !destination) return null;
  return (
    <Suspense fallback={null}>
      <ConsultScreen caseId={caseId} hospital={destination} minimized={view === 'minimized'} />
    </Suspense>
  );
}

/** The nav bar's live-consult-active indicator (spec §2): tapping it maximises the consult. */
export function ConsultIndicator() {
  const view = useConsultView((s) => s.view);
  if (view === 'none') return null;
  return (
    <button
      type="button"
      className="icon-button icon-button--consult-on"
      aria-label={view === 'minimized' ? 'Live consult on: show it' : 'Live consult on'}
      onClick={maximizeConsult}
      data-testid="consult-indicator"
    >
      <svg viewBox="0 0 24 24" width="26" height="26" aria-hidden="true" focusable="false">
        <path
          fill="currentColor"
          d="M4 6h11a2 2 0 0 1 2 2v1.5l4-2.5v10l-4-2.5V16a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V8a2 2 0 0 1 2-2z"
        />
      </svg>
    </button>
  );
}
