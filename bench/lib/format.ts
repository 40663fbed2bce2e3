/** Small helpers to print figures beside their targets. Benchmarks report; they never assert. */
export const KB = 1024;

export function kb(bytes: number): string {
  return `${(bytes / KB).toFixed(1)} KB`;
}

export function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

export function padStart(text: string, width: number): string {
  return text.length >= width ? text : ' '.repeat(width - text.length) + text;
}

export function verdict(ok: boolean): string {
  return ok ? 'within target' : 'OVER TARGET';
}

/** Server CPU time per answered request, in µs: comparable between runs on a busy machine, unlike req/s. */
export const cpuPerAnswerUs = (cores: number, perSecond: number): string =>
  perSecond > 0 ? ((cores * 1e6) / perSecond).toFixed(0) : '–';
