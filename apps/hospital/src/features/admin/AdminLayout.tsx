/**
 * The administration shell of the console: the header (who is signed in, back to the board for those
 * who staff an ED, sign out), the section navigation, and the section's page. Organisation admins only;
 * anyone else who types an /admin address is told so instead of seeing forms the server would refuse.
 */
import { NavLink, Outlet, Link } from 'react-router';
import { useMe } from '../auth/queries';
import { useSignOut } from '../auth/mutations';
import { PageSuspense } from '../../lib/PageSuspense';
import './admin.css';

export const ADMIN_SECTIONS = [
  { to: 'agencies', label: 'Agencies' },
  { to: 'hospitals', label: 'Hospitals' },
  { to: 'complaint-sets', label: 'Complaint sets' },
  { to: 'users', label: 'Users' },
  { to: 'audit-log', label: 'Audit log' },
  { to: 'audit-trail', label: 'Security audit' },
  { to: 'protocol-questions', label: 'Protocol questions' },
  { to: 'teams', label: 'Teams' },
  { to: 'protocol-library', label: 'Protocol library' },
] as const;

export function AdminLayout() {
  const me = useMe();
  const signOut = useSignOut();

  if (me.isPending) {
    return (
      <main className="centered" role="status">
        Loading…
      </main>
    );
  }
  if (me.isError) {
    return (
      <main className="centered">
        <div role="alert" className="banner banner-error">
          {me.error.message}
        </div>
        <button className="button" type="button" onClick={() => void me.refetch()}>
          Try again
        </button>
      </main>
    );
  }
  const user = me.data;
  const isAdmin = user.roles.includes('orgAdmin');
  const staffsAnEd = user.hospitalMemberships.length > 0;

  return (
    <div className="layout">
      <header className="app-header">
        <div className="app-header-title">
          <p className="brand brand-on-dark">Inbound · Hospital console</p>
          <h1>Administration</h1>
        </div>
        <div className="app-header-user">
          {staffsAnEd && (
            <Link className="button button-quiet header-link" to="/">
              Inbound board
            </Link>
          )}
          <p>
            <span className="user-name">{user.displayName}</span>
            <span className="user-roles">{isAdmin ? 'Organisation admin' : ''}</span>
          </p>
          <button
            className="button button-quiet"
            type="button"
            onClick={() => signOut.mutate()}
            disabled={signOut.isPending}
          >
            {signOut.isPending ? 'Signing out...' : 'Sign out'}
          </button>
        </div>
      </header>
      {isAdmin ? (
        <div className="admin">
          <nav className="admin-nav" aria-label="Administration">
            <ul>
              {ADMIN_SECTIONS.map((section) => (
                <li key={section.to}>
                  <NavLink
                    to={section.to}
                    className={({ isActive }) => (isActive ? 'admin-nav-link active' : 'admin-nav-link')}
                  >
                    {section.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <main className="admin-main">
            <PageSuspense>
              <Outlet />
            </PageSuspense>
          </main>
        </div>
      ) : (
        <main className="board">
          <section className="panel" aria-labelledby="admin-denied">
            <h2 id="admin-denied">Administration</h2>
            <p className="muted">Administration is for organisation admins. Ask one if you need a change.</p>
          </section>
        </main>
      )}
    </div>
  );
}
