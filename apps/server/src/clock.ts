/** Time comes from here so tests can move it (token expiry, rate-limit windows) without waiting. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
