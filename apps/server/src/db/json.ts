/** JSON columns are text on both databases; these keep the parse in one place. */
export function parseJson<T>(text: string | null | undefined, fallback: T): T {
  if (text === null || text === undefined || text === '') return fallback;
  return JSON.parse(text) as T;
}

export const toJson = (value: unknown): string => JSON.stringify(value);

export const toFlag = (value: boolean): number => (value ? 1 : 0);
export const fromFlag = (value: number | boolean | string | null | undefined): boolean =>
  value === true || value === 1 || value === '1';
