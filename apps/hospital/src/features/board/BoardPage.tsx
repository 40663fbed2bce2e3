import { Navigate } from 'react-router';
import { useMe } from '../auth/queries';
import { useSignOut } from '../auth/mutations';
import { BoardToolbar } from './BoardToolbar';
import { HospitalHeader } from './HospitalHeader';
import { InboundBoard } from './InboundBoard';
import { StatusesPanel } from '../statuses/StatusesPanel';
import { BroadcastComposer } from '../broadcasts/BroadcastComposer';
import { DispatchedCases } from '../broadcasts/DispatchedCases';
import { useHospitals } from './queries';
import { useSoundSetting } from './useP1Alerts';
import { ActivationProposals } from '../activation/ActivationProposals';

/** The console's home: the live inbound board of each hospital the user staffs. */
export function BoardPage() {
  const me = useMe();
  const signOut = useSignOut();
  const [soundOn, setSoundOn] = useSoundSetting();
  const hospitalQueries = useHospitals(me.data?.hospitalMemberships.map((membership) => membership._id) ?? []);

  if (me.isPending) return <Loading />;
  if (me.isError) return <LoadError message={me.error.message} onRetry={() => void me.refetch()} />;

  const failed = hospitalQueries.find((query) => query.isError);
  if (failed?.error) return <LoadError message={failed.error.message} onRetry={() => void failed.refetch()} />;
  if (hospitalQueries.some((query) => query.isPending)) return <Loading />;

  const hospitals = hospitalQueries.flatMap((query) => (query.data ? [query.data] : []));
  const isAdmin = me.data.roles.includes('orgAdmin');
  // An organisation admin who staffs no ED has no board: their console is the administration.
  if (isAdmin && hospitals.length === 0) return <Navigate to="/admin" replace />;

  return (
    <div className="layout">
      <HospitalHeader
        user={me.data}
        hospitals={hospitals}
        onSignOut={() => signOut.mutate()}
        signingOut={signOut.isPending}
      >
        {hospitals.length > 0 && <BoardToolbar soundOn={soundOn} onSoundChange={setSoundOn} />}
      </HospitalHeader>
      <main className="board">
        {hospitals.length > 0 ? (
          <>
            {hospitals.map((h) => (
              // The board takes the width; the hospital's statuses and the broadcast composer sit in a
              // side column (below the board on a narrow screen), so they never push the cards down.
              <div className="board-columns" key={h._id}>
                <div className="board-main">
                  <ActivationProposals hospitalId={h._id} />
                  <InboundBoard hospitalId={h._id} soundOn={soundOn} />
                  <DispatchedCases hospitalId={h._id} />
                </div>
                <aside className="board-side" aria-label={`${h.name}: status and broadcasts`}>
                  <StatusesPanel hospitalId={h._id} />
                  <BroadcastComposer hospitalId={h._id} />
                </aside>
              </div>
            ))}
          </>
        ) : (
          <section className="panel" aria-labelledby="inbound-title">
            <h2 id="inbound-title">Inbound patients</h2>
            {isAdmin ? (
              <p className="muted">You administer the organisation. Hospital boards are shown to their ED staff.</p>
            ) : (
              <p className="muted">Your account is not linked to an emergency department. Ask your administrator.</p>
            )}
          </section>
        )}
      </main>
    </div>
  );
}

function Loading() {
  return (
    <main className="centered" role="status">
      Loading…
    </main>
  );
}

function LoadError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <main className="centered">
      <div role="alert" className="banner banner-error">
        {message}
      </div>
      <button className="button" type="button" onClick={onRetry}>
        Try again
      </button>
    </main>
  );
}
