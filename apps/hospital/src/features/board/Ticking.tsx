import type { TagFieldValue } from '@inbound/contract';
import { useSecondClock } from './clock';
import { formatElapsed, formatFieldValue } from './format';

/** "7 min" since `since`, ticking every second on its own (the card around it does not re-render). */
export function Elapsed({ since }: { since: string }) {
  const now = useSecondClock();
  return <>{formatElapsed(now - Date.parse(since))}</>;
}

/** A tag field's value; date-times say how long ago, ticking on their own. */
export function FieldValue({ field }: { field: TagFieldValue }) {
  return field.type === 'datetime' ? <TickingFieldValue field={field} /> : <>{formatFieldValue(field, 0)}</>;
}

function TickingFieldValue({ field }: { field: TagFieldValue }) {
  const now = useSecondClock();
  return <>{formatFieldValue(field, now)}</>;
}
