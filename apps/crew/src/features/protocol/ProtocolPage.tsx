import { Link } from 'react-router';
import { messages } from '@inbound/contract';
import { useSession } from '../../lib/session';
import { paths } from '../../routing/paths';
import { TopBar } from '../../ui/TopBar';

/** `/protocol`: the standalone AI protocol assistant (its own issue). Reachable signed out, as the guard allows. */
export function ProtocolPage() {
  const signedIn = useSession((state) => state.jwt !== null);
  return (
    <div className="page">
      <TopBar
        title="Protocols"
        start={
          <Link className="top-bar__button" to={signedIn ? paths.start : paths.login}>
            Back
          </Link>
        }
      />
      <div className="page__content">
        <button type="button" className="button button--primary button--block" disabled>
          {messages.askQuestion}
        </button>
        <p className="empty-state">The protocol assistant is not available in this version.</p>
      </div>
    </div>
  );
}
