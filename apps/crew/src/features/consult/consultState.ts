/**
 * Whether a live consult is on, and whether it is shown or minimised (spec §3 Case `liveConsult`
 * {started, minimized}), for the pieces that load with the case screen: the Media tab's button, the
 * nav-bar indicator and the guards (spec §4: no close, no call, no transfer during a consult). The
 * consult room itself (WebRTC, its screen) loads only when the crew starts one (ConsultScreen).
 */
import { create } from 'zustand';

export type ConsultView = 'none' | 'open' | 'minimized';

export const useConsultView = create<{ view: ConsultView; caseId: string | null }>()(() => ({
  view: 'none',
  caseId: null,
}));

export const isConsultActive = (): boolean => useConsultView.getState().view !== 'none';

export function startConsult(caseId: string): void {
  useConsultView.setState({ view: 'open', caseId });
}

export function minimizeConsult(): void {
  if (isConsultActive()) useConsultView.setState({ view: 'minimized' });
}

export function maximizeConsult(): void {
  if (isConsultActive()) useConsultView.setState({ view: 'open' });
}

export function endConsultView(): void {
  useConsultView.setState({ view: 'none', caseId: null });
}
