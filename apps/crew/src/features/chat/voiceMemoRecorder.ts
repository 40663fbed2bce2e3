/**
 * The hook point between the CHAT tab and the voice-memo recorder (spec §2: "With no text, a mic icon
 * opens the voice memo recorder"). The recorder belongs to the media feature; when it exists it calls
 * `registerVoiceMemoRecorder(open)` and the mic appears. Until then there is no mic: a button that
 * opens nothing would tell the crew a lie.
 */
import { useSyncExternalStore } from 'react';

type OpenRecorder = () => void;

let recorder: OpenRecorder | null = null;
const listeners = new Set<() => void>();

/** Returns the unregister function. */
export function registerVoiceMemoRecorder(open: OpenRecorder): () => void {
  recorder = open;
  listeners.forEach((listener) => listener());
  return () => {
    if (recorder !== open) return;
    recorder = null;
    listeners.forEach((listener) => listener());
  };
}

export function useVoiceMemoRecorder(): OpenRecorder | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => recorder,
  );
}
