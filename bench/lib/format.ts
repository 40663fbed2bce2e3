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
