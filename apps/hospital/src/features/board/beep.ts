/**
 * The alert sound, made with WebAudio (no audio file to fetch): three short two-tone beeps, loud enough
 * to be heard over an ED but not a siren. Browsers start audio only after a user gesture; `unlock()`
 * is called from one (the sound toggle, any click), and `audioBlocked()` says whether it still is.
 */
let context: AudioContext | null = null;

function audio(): AudioContext | null {
  if (typeof window === 'undefined' || typeof window.AudioContext !== 'function') return null;
  context ??= new window.AudioContext();
  return context;
}

export function unlockAudio(): void {
  void audio()?.resume();
}

export function audioBlocked(): boolean {
  const ctx = audio();
  return ctx === null || ctx.state !== 'running';
}

export function playAlert(): void {
  const ctx = audio();
  if (!ctx || ctx.state !== 'running') return;
  const start = ctx.currentTime + 0.02;
  for (let i = 0; i < 3; i++) {
    for (const [offset, frequency] of [
      [0, 880],
      [0.14, 660],
    ] as const) {
      const at = start + i * 0.4 + offset;
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = 'square';
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.25, at + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.12);
      osc.connect(gain).connect(ctx.destination);
      osc.start(at);
      osc.stop(at + 0.13);
    }
  }
}

/** The same audio context for the incoming-call ring (features/call). */
export const alertAudio = audio;
