import { useState } from 'react';
import { Link } from 'react-router';
import { messages } from '@inbound/contract';
import { useSession } from '../../lib/session';
import { paths } from '../../routing/paths';
import { TopBar } from '../../ui/TopBar';
import { EmsLevelDialog } from './EmsLevelDialog';
import { needsEmsLevel } from './emsLevel';
import { ProtocolAssistant } from './ProtocolAssistant';

/**
 * `/protocol` (spec §2): the standalone assistant, with no case. Reachable signed out, as the guard
 * allows; questions need the crew's agency, so a signed-out visitor is asked to sign in first.
 */
export function ProtocolPage() {
  const signedIn = useSession((state) => state.jwt !== null);
  const team = useSession((state) => state.selectedTeam);
  const levelNeeded = useSession((state) =>
    needsEmsLevel({ team: state.selectedTeam, userId: state.user?.id ?? null, stored: state.emtLevel }),
  );
  const [levelDismissed, setLevelDismissed] = useState(false);

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
        {signedIn && team ? (
          <ProtocolAssistant context={null} />
        ) : (
          <>
            <button type="button" className="button button--primary button--block" disabled>
              {messages.askQuestion}
            </button>
            <p className="empty-state">Sign in to ask your agency&apos;s protocols.</p>
          </>
        )}
      </div>
      {signedIn && levelNeeded && !levelDismissed && (
        <EmsLevelDialog onContinue={() => undefined} onClose={() => setLevelDismissed(true)} />
      )}
    </div>
  );
}
