/** A message over the form: errors are alerts (read out at once), successes are statuses. */
export function Banner({ kind, message }: { kind: 'error' | 'success'; message: string }) {
  return (
    <div className={`banner banner--${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {message}
    </div>
  );
}
