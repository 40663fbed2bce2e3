import { useId, useState, type FormEvent } from 'react';
import { CreateDispatchBody, DISPATCH_NOTES_MAX_LENGTH, type CreateDispatchResponse } from '@inbound/contract';
import { useCreateDispatch, useDispatchOptions } from './queries';

/**
 * Dispatch a case to an agency delivering to the hospital: the server makes the case number and sends
 * the emsDispatch broadcast a crew loads from its Message Center. Like the broadcast form, one
 * Idempotency-Key per composition, kept through retries: a retried dispatch is still one case.
 */
export function DispatchForm({ hospitalId }: { hospitalId: string }) {
  const options = useDispatchOptions(hospitalId, true);
  const dispatch = useCreateDispatch(hospitalId);
  const [composeKey, setComposeKey] = useState(() => crypto.randomUUID());
  const [agencyId, setAgencyId] = useState('');
  const [complaintId, setComplaintId] = useState('');
  const [notes, setNotes] = useState('');
  const [urgent, setUrgent] = useState(false);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [done, setDone] = useState<CreateDispatchResponse | null>(null);
  const ids = { agency: useId(), complaint: useId(), notes: useId(), hint: useId() };

  const agencies = options.data?.agencies ?? [];
  // With one agency delivering, it is the choice.
  const chosenAgency = agencies.find((a) => a._id === agencyId) ?? (agencies.length === 1 ? agencies[0] : undefined);
  const complaints = [...(chosenAgency?.complaints ?? [])].sort(
    (a, b) => a.priority - b.priority || a.name.localeCompare(b.name),
  );

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!chosenAgency) {
      setFieldError('Choose the agency to dispatch to.');
      return;
    }
    const parsed = CreateDispatchBody.safeParse({
      emsAgencyId: chosenAgency._id,
      complaintId: complaintId === '' ? null : complaintId,
      notes,
      urgent,
    });
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message ?? 'Check the form.');
      return;
    }
    setFieldError(null);
    dispatch.mutate(
      { body: parsed.data, idempotencyKey: composeKey },
      {
        onSuccess: (answer) => {
          setDone(answer);
          setComposeKey(crypto.randomUUID());
          setComplaintId('');
          setNotes('');
          setUrgent(false);
        },
      },
    );
  }

  if (options.isPending) return <p role="status">Loading agencies…</p>;
  if (options.isError) {
    return (
      <div role="alert" className="banner banner-error">
        {options.error.message}{' '}
        <button className="button" type="button" onClick={() => void options.refetch()}>
          Try again
        </button>
      </div>
    );
  }
  if (agencies.length === 0) return <p className="muted">No agency delivers to this hospital.</p>;

  return (
    <form className="broadcast-form dispatch-form" onSubmit={submit} noValidate aria-label="Dispatch a case">
      <div className="dispatch-row">
        <div className="field">
          <label htmlFor={ids.agency}>Agency</label>
          <select
            id={ids.agency}
            value={chosenAgency?._id ?? ''}
            onChange={(e) => {
              setAgencyId(e.target.value);
              setComplaintId('');
              setFieldError(null);
            }}
          >
            {agencies.length > 1 && <option value="">Choose an agency</option>}
            {agencies.map((a) => (
              <option key={a._id} value={a._id}>
                {a.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.complaint}>Complaint</label>
          <select id={ids.complaint} value={complaintId} onChange={(e) => setComplaintId(e.target.value)}>
            <option value="">Crew chooses</option>
            {complaints.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name} (priority {c.priority})
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="field">
        <label htmlFor={ids.notes}>Priority and notes</label>
        <textarea
          id={ids.notes}
          value={notes}
          rows={2}
          maxLength={DISPATCH_NOTES_MAX_LENGTH}
          aria-describedby={ids.hint}
          onChange={(e) => setNotes(e.target.value)}
        />
        <p id={ids.hint} className="field-hint">
          Where and how urgent. No patient names or dates of birth: the crew sees this in its Message Center.
        </p>
      </div>
      <label className="check">
        <input type="checkbox" checked={urgent} onChange={(e) => setUrgent(e.target.checked)} />
        Urgent
      </label>
      <button className="button button-primary" type="submit" disabled={dispatch.isPending}>
        {dispatch.isPending ? 'Dispatching…' : 'Dispatch case'}
      </button>
      {fieldError && <p className="field-error">{fieldError}</p>}
      {dispatch.isError && (
        <div role="alert" className="banner banner-error">
          {dispatch.error.message}
        </div>
      )}
      {done && !dispatch.isError && (
        <p role="status" className="dispatch-done">
          Case <strong>{done.dispatch.caseNumber}</strong> dispatched to {done.dispatch.agency.name}: awaiting crew.
        </p>
      )}
    </form>
  );
}
