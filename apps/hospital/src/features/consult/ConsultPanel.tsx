import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/client';
import { ConsultRoom } from './ConsultRoom';

/** How often an open case detail looks at its consult room (who is in it). */
const ROOM_EVERY_MS = 5_000;

export function useConsultRoom(caseId: string) {
  return useQuery({
    queryKey: ['consult-room', caseId],
    queryFn: () => api('consultRoom', { params: { id: caseId } }),
    refetchInterval: ROOM_EVERY_MS,
  });
}

/** The link a specialist who is not at the console opens on a phone (after signing in). */
export const consultLink = (caseId: string) => `${window.location.origin}/hospital/consult/${caseId}`;

/**
 * The case detail's live consult (issue 12 item 2): start or join the case's room with the crew, see
 * who is in it, and copy the link for a specialist on a phone. Only where the hospital offers consults.
 */
export function ConsultPanel({ caseId, title }: { caseId: string; title: string }) {
  const room = useConsultRoom(caseId);
  const [open, setOpen] = useState(false);
  const [copied, setCopied] = useState(false);
  if (!room.data?.available) return null;
  const consult = room.data.consult;
  const copy = () => {
    void navigator.clipboard?.writeText(consultLink(caseId)).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  return (
    <section className="panel" aria-labelledby="consult-title">
      <h2 id="consult-title">Live consult</h2>
      {consult ? (
        <p data-testid="consult-status">
          In the room: {consult.participants.map((p) => `${p.name}${p.side === 'crew' ? ' (crew)' : ''}`).join(', ')}
        </p>
      ) : (
        <p className="muted">No consult running.</p>
      )}
      <div className="consult-panel__actions">
        <button type="button" className="button button-large" onClick={() => setOpen(true)} disabled={open}>
          {consult ? 'Join live consult' : 'Start live consult'}
        </button>
        <button type="button" className="button" onClick={copy}>
          {copied ? 'Link copied' : 'Copy link for a specialist'}
        </button>
      </div>
      <p className="muted small">
        A specialist opens <code>{consultLink(caseId)}</code> on a phone and signs in as ED staff of this hospital.
      </p>
      {open && (
        <ConsultRoom
          caseId={caseId}
          title={title}
          onClose={() => {
            setOpen(false);
            void room.refetch();
          }}
        />
      )}
    </section>
  );
}
