import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useConsultRoom } from './ConsultPanel';
import { ConsultRoom } from './ConsultRoom';
import './consult.css';

/**
 * `/hospital/consult/:caseId`: the link a specialist opens on a phone (issue 12 item 2). Signed out,
 * the sign-in form shows at this address; signed in as ED staff of the case's destination, the room
 * (the server refuses everyone else, as it does the case).
 */
export function ConsultPage() {
  const { caseId = '' } = useParams();
  const room = useConsultRoom(caseId);
  const [joined, setJoined] = useState(false);
  if (room.isPending) {
    return (
      <main className="centered" role="status">
        Loading the consult…
      </main>
    );
  }
  if (room.isError) {
    return (
      <main className="centered">
        <p role="alert" className="banner banner-error">
          {room.error.message}
        </p>
        <Link className="button" to="/">
          Back to the board
        </Link>
      </main>
    );
  }
  const consult = room.data.consult;
  const title = consult ? `Case ${consult.caseNumber}` : 'Live consult';
  return (
    <main className="consult-page">
      <h1>{title}</h1>
      {!room.data.available ? (
        <p className="banner banner-error">This hospital does not offer live consults.</p>
      ) : (
        <>
          <p>
            {consult
              ? `In the room: ${consult.participants.map((p) => p.name).join(', ')}`
              : 'No consult running yet: joining starts it.'}
          </p>
          <button type="button" className="button button-large" onClick={() => setJoined(true)}>
            Join live consult
          </button>
        </>
      )}
      {joined && <ConsultRoom caseId={caseId} title={title} onClose={() => setJoined(false)} />}
    </main>
  );
}
