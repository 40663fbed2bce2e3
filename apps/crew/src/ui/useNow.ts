import { useEffect, useState } from 'react';

/** The current time, renewed every `everyMs` (default 30 s): enough for "42 min ago" to stay true. */
export function useNow(everyMs = 30_000): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
