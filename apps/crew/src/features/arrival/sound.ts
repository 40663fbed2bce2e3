/**
 * The crew's diversion alert sound: WebAudio tones (no file to fetch or cache), and a vibration on
 * phones that have it. Browsers let audio start only after a user gesture; the crew has tapped the app
 * long before a diversion comes, so it plays — and when it cannot, the banner still says it.
 */
let context: AudioContext | null = null;

export function playDiversionAlert(): void {
  try {
    navigator.vibrate?.([300, 150, 300, 150, 300]);
  } catch {
    // No vibration: the sound and the banner remain.
  }
  if (typeof window === 'undefined' || typeof window.AudioContext !== 'function') return;
  context ??= new window.AudioContext();
  const ctx = context;
  void ctx.resume();
  const start = ctx.currentTime + 0.02;
  for (let i = 0; i < 3; i++) {
    for (const [offset, frequency] of [
      [0, 988],
      [0.18, 740],
    ] as const) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(0.25, start + i * 0.5 + offset);
      gain.gain.exponentialRampToValueAtTime(0.001, start + i * 0.5 + offset + 0.16);
      osc.connect(gain).connect(ctx.destination);
      osc.start(start + i * 0.5 + offset);
      osc.stop(start + i * 0.5 + offset + 0.17);
    }
  }
}
