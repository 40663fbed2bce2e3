import { formatDisplayTime } from '../shift/shiftTime';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** hh:mm a today; "MMM d, hh:mm a" on other days. */
export function formatMessageTime(date: Date, now: Date): string {
  const sameDay = date.toDateString() === now.toDateString();
  return sameDay ? formatDisplayTime(date) : `${MONTHS[date.getMonth()]} ${date.getDate()}, ${formatDisplayTime(date)}`;
}
