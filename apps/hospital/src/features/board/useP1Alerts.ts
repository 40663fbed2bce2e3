import { useCallback, useEffect, useRef, useState } from 'react';
import type { BoardCase } from '@inbound/contract';
import { dueAlerts } from './alerts';
import { playAlert } from './beep';

const CHECK_EVERY_MS = 5_000;
const SOUND_KEY = 'inbound.hospital.sound';

/** Whether the alert sound is on (kept on this screen: a preference, not patient data). */
export function useSoundSetting(): [boolean, (on: boolean) => void] {
  const [on, setOn] = useState(() => localStorage.getItem(SOUND_KEY) !== 'off');
  const set = useCallback((value: boolean) => {
    localStorage.setItem(SOUND_KEY, value ? 'on' : 'off');
    setOn(value);
  }, []);
  return [on, set];
}

/**
 * Sound and banner for priority-1 cases: a new one alerts at once, and an unacknowledged one again every
 * two minutes (alerts.ts) until someone acknowledges it. Answers the cases to show in the banner;
 * `dismiss` hides one until its next reminder.
 */
export function useP1Alerts(open: readonly BoardCase[] | undefined, soundOn: boolean) {
  const log = useRef(new Map<string, number>());
  const [flagged, setFlagged] = useState<ReadonlySet<string>>(new Set());
  const latest = useRef({ open, soundOn });
  useEffect(() => {
    latest.current = { open, soundOn };
  });

  const check = useCallback(() => {
    const cases = latest.current.open;
    if (!cases) return;
    const due = dueAlerts(cases, log.current, Date.now());
    if (due.length === 0) return;
    for (const c of due) log.current.set(c.id, Date.now());
    if (latest.current.soundOn) playAlert();
    setFlagged((prev) => new Set([...prev, ...due.map((c) => c.id)]));
  }, []);

  useEffect(check, [open, check]);
  useEffect(() => {
    const timer = setInterval(check, CHECK_EVERY_MS);
    return () => clearInterval(timer);
  }, [check]);

  const dismiss = useCallback((caseId: string) => {
    setFlagged((prev) => new Set([...prev].filter((id) => id !== caseId)));
  }, []);

  const alerting = (open ?? []).filter(
    (c) => flagged.has(c.id) && c.acknowledgement === null && c.complaint?.priority === 1,
  );
  return { alerting, dismiss };
}
