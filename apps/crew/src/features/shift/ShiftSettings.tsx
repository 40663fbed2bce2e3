import { useId } from 'react';
import { messages } from '@inbound/contract';
import { useSession } from '../../lib/session';
import { Switch } from '../../ui/Switch';
import { saveShiftEnd } from './shiftSettings';
import { defaultShiftEnd, formatDisplayTime, formatInputTime, nextOccurrence, shiftEndInstant } from './shiftTime';

/**
 * The auto-logout switch and shift-end time (spec §2, §4). Every change is saved as it is made, so
 * leaving the page (Done, Back, Next, or the app closing) always keeps what is on screen.
 */
export function ShiftSettings({ now = () => new Date() }: { now?: () => Date }) {
  const autoLogoutTime = useSession((state) => state.autoLogoutTime);
  const autoLogoutAt = useSession((state) => state.autoLogoutAt);
  const timeId = useId();
  const end = shiftEndInstant({ autoLogoutTime, autoLogoutAt }, now());

  const toggle = (on: boolean) => saveShiftEnd(on ? defaultShiftEnd(now()) : null);
  const changeTime = (value: string) => {
    const next = nextOccurrence(value, now());
    if (next) saveShiftEnd(next);
  };

  return (
    <section className="shift-settings" aria-label="Shift settings">
      <Switch label="Auto Logout" checked={end !== null} onChange={toggle} description={messages.autoLogoutHelp} />
      {end && (
        <div className="field field--inline">
          <label className="field__label" htmlFor={timeId}>
            Shift ends at
          </label>
          <input
            id={timeId}
            type="time"
            className="field__input field__input--time"
            value={formatInputTime(end)}
            onChange={(event) => changeTime(event.target.value)}
          />
          <p className="field__hint">
            {isSameDay(end, now()) ? 'Today' : 'Tomorrow'} at {formatDisplayTime(end)}
          </p>
        </div>
      )}
    </section>
  );
}

function isSameDay(a: Date, b: Date): boolean {
  return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
}
