import { useEffect, useState } from 'react';

/** The current time, updated every `everyMs` (the board's elapsed times and ETAs tick with it). */
export function useNow(everyMs = 1_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
