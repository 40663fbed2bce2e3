/**
 * Whether a voice call is on (ringing or connected), for the guards that load with the case screen
 * (spec §4: no close, no transfer, no live consult during a call). The call itself loads only when
 * the crew taps the phone (CallScreen).
 */
import { create } from 'zustand';

export const useCallActive = create<{ active: boolean }>()(() => ({ active: false }));

export const isCallActive = (): boolean => useCallActive.getState().active;

export function setCallActive(active: boolean): void {
  useCallActive.setState({ active });
}
