import { useId, useState, type FormEvent } from 'react';
import { SetHospitalStatusBody, type HospitalStatus, type StatusPriority } from '@inbound/contract';
import { formatClock } from '../board/format';

const PRIORITY_LABEL: Record<StatusPriority, string> = { critical: 'Critical', urgent: 'Urgent' };

export interface StatusesViewProps {
  statuses: readonly HospitalStatus[];
  onAdd: (body: SetHospitalStatusBody) => void;
  onClear: (statusId: string) => void;
  adding: boolean;
  /** The status being cleared, to disable only its button. */
  clearingId: string | null;
  error: string | null;
}

/**
 * The hospital's active statuses (critical first) and a form to add one. Priority shows as colour and as
 * words, so it reads without colour too.
 */
export function StatusesView({ statuses, onAdd, onClear, adding, clearingId, error }: StatusesViewProps) {
  const [text, setText] = useState('');
  const [priority, setPriority] = useState<StatusPriority>('urgent');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const textId = useId();
  const priorityId = useId();
  const titleId = useId();
  const ordered = [...statuses].sort(
    (a, b) => Number(b.priority === 'critical') - Number(a.priority === 'critical') || a.setAt.localeCompare(b.setAt),
  );

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = SetHospitalStatusBody.safeParse({ status: text, priority });
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message ?? 'status is required');
      return;
    }
    setFieldError(null);
    onAdd(parsed.data);
    setText('');
  }

  return (
    <section className="panel statuses" aria-labelledby={titleId}>
      <h2 id={titleId} className="section-title">
        Hospital status <span className="section-count">{statuses.length}</span>
      </h2>
      {ordered.length === 0 ? (
        <p className="muted">No active status. Crews see the hospital as normal.</p>
      ) : (
        <ul className="status-list" aria-label="Active statuses">
          {ordered.map((s) => (
            <li key={s._id} className={`status-item status-${s.priority}`}>
              <span className="status-priority">{PRIORITY_LABEL[s.priority]}</span>
              <span className="status-text">{s.status}</span>
              <span className="muted">since {formatClock(s.setAt)}</span>
              <button
                className="button"
                type="button"
                onClick={() => onClear(s._id)}
                disabled={clearingId === s._id}
                aria-label={`Clear status ${s.status}`}
              >
                Clear
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="status-form" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor={textId}>New status</label>
          <input
            id={textId}
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setFieldError(null);
            }}
            aria-invalid={fieldError !== null}
            maxLength={200}
          />
        </div>
        <div className="field">
          <label htmlFor={priorityId}>Priority</label>
          <select id={priorityId} value={priority} onChange={(e) => setPriority(e.target.value as StatusPriority)}>
            <option value="critical">Critical</option>
            <option value="urgent">Urgent</option>
          </select>
        </div>
        <button className="button button-primary" type="submit" disabled={adding}>
          {adding ? 'Setting…' : 'Set status'}
        </button>
        {fieldError && <p className="field-error">{fieldError}</p>}
      </form>
      {error && (
        <div role="alert" className="banner banner-error">
          {error}
        </div>
      )}
    </section>
  );
}
