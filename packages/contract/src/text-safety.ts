/**
 * The one rule for text every client may send, checked by the server on every JSON body, query string,
 * path parameter and real-time frame before any schema runs: no C0 control characters except tab, line
 * feed and carriage return (NUL breaks PostgreSQL text, the others break logs and other systems), only
 * well-formed Unicode (a lone surrogate half cannot be stored as UTF-8), and JSON nested at most
 * MAX_JSON_DEPTH deep. A date-time string (`2026-11-25T10:00…`) must also fall in the years
 * EARLIEST_YEAR–LATEST_YEAR: year 0000 or 9999 is a client bug or an attack, and breaks date arithmetic
 * downstream. Clients may use `findUnsafeText` to refuse such input before sending it.
 */

// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const FORBIDDEN_CONTROL_CHARACTER = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;

// A high surrogate not followed by a low one, or a low one not preceded by a high one (code units, no u flag).
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Deeper JSON is refused: no real body nests more than a few levels. */
export const MAX_JSON_DEPTH = 32;

export interface UnsafeText {
  /** Where, as `a.b.0.c` below the root (empty for the root itself). */
  path: string;
  problem: string;
}

/** The years a date-time sent to us may name. */
export const EARLIEST_YEAR = 2000;
export const LATEST_YEAR = 2099;
const DATE_TIME = /^([+-]?\d{4,6})-\d{2}-\d{2}T\d{2}:\d{2}/;

function textProblem(text: string): string | null {
  if (FORBIDDEN_CONTROL_CHARACTER.test(text)) return 'control characters are not allowed';
  if (LONE_SURROGATE.test(text)) return 'is not well-formed Unicode';
  const dateTime = DATE_TIME.exec(text);
  if (dateTime) {
    const year = Number(dateTime[1]);
    if (year < EARLIEST_YEAR || year > LATEST_YEAR) {
      return `must be a time in the years ${EARLIEST_YEAR} to ${LATEST_YEAR}`;
    }
  }
  return null;
}

/** The first unsafe string (value or key) in a parsed JSON value, or null when all is well. */
export function findUnsafeText(value: unknown, maxDepth: number = MAX_JSON_DEPTH): UnsafeText | null {
  // Iterative, so a hostile nesting depth cannot overflow the stack before it is refused.
  const stack: { value: unknown; path: string[] }[] = [{ value, path: [] }];
  while (stack.length > 0) {
    const { value: current, path } = stack.pop()!;
    if (typeof current === 'string') {
      const problem = textProblem(current);
      if (problem) return { path: path.join('.'), problem };
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (path.length >= maxDepth) return { path: path.join('.'), problem: `is nested more than ${maxDepth} deep` };
    for (const [key, child] of Object.entries(current)) {
      const keyProblem = textProblem(key);
      if (keyProblem) return { path: [...path, key.replace(/[^\x20-\x7e]/g, '?')].join('.'), problem: keyProblem };
      stack.push({ value: child, path: [...path, key] });
    }
  }
  return null;
}

/** "body.notes: control characters are not allowed" for an unsafe value found under `prefix`. */
export function describeUnsafeText(prefix: string, found: UnsafeText): string {
  return `${[prefix, found.path].filter(Boolean).join('.')}: ${found.problem}`;
}
