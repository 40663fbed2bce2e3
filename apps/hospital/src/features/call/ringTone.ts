/**
 * The incoming-call ring, made with WebAudio like the board's alert (beep.ts): a soft two-tone ring,
 * unlike the priority-1 alert's beeps so staff tell them apart. Silent until the page's audio is
 * unlocked by a click (browser rule); the banner then shows "Click to hear the ring".
 */
import { alertAudio } from '../board/beep';

export function playRing(): void {
  const ctx = alertAudio();
  if (!ctx || ctx.state !== 'running') return;
  const start = ctx.currentTime + 0.02;
  for (let i = 0; i < 2; i++) {
    const at = start + i * 0.5;
    for (const frequency of [440, 480]) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = 'sine';
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.2, at + 0.03);
      gain.gain.setValueAtTime(0.2, at + 0.35);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.4);
      osc.connect(gain).connect(ctx.destination);
      osc.start(at);
      osc.stop(at + 0.42);
    }
  }
}
