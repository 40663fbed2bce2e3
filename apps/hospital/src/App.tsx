import { OffloadAlerts } from './features/chargeNurse/OffloadAlerts';
import { lazy } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { ChangePasswordPage, needsPasswordChange } from './features/auth/ChangePasswordPage';
import { IdleLock } from './features/auth/IdleLock';
import { MfaEnrolPage } from './features/auth/MfaEnrolPage';
import { useMe, useMfaStatus } from './features/auth/queries';
import { SignInPage } from './features/auth/SignInPage';
import { useSessionToken } from './features/auth/useSession';
import { BoardPage } from './features/board/BoardPage';
import { IncomingCalls } from './features/call/IncomingCalls';
import { LeftRecordings } from './features/call/LeftRecordings';
import { PageSuspense } from './lib/PageSuspense';
import { TeamAlerts } from './features/activation/TeamAlerts';

// The board is the first screen; the case detail (with the map library) and administration load when
// first opened, so the board on the ED's screen starts with less JavaScript.
const CaseDetailPage = lazy(() =>
  import('./features/case/CaseDetailPage').then((m) => ({ default: m.CaseDetailPage })),
);
const AdminLayout = lazy(() => import('./features/admin/AdminLayout').then((m) => ({ default: m.AdminLayout })));
const AgenciesPage = lazy(() =>
  import('./features/admin/agencies/AgenciesPage').then((m) => ({ default: m.AgenciesPage })),
);
const HospitalsPage = lazy(() =>
  import('./features/admin/hospitals/HospitalsPage').then((m) => ({ default: m.HospitalsPage })),
);
const ComplaintSetsPage = lazy(() =>
  import('./features/admin/complaintSets/ComplaintSetsPage').then((m) => ({ default: m.ComplaintSetsPage })),
);
const UsersPage = lazy(() => import('./features/admin/users/UsersPage').then((m) => ({ default: m.UsersPage })));
const AuditLogPage = lazy(() =>
  import('./features/admin/audit/AuditLogPage').then((m) => ({ default: m.AuditLogPage })),
);
const AuditTrailPage = lazy(() =>
  import('./features/admin/audit/AuditTrailPage').then((m) => ({ default: m.AuditTrailPage })),
);
const SecurityPage = lazy(() => import('./features/auth/SecurityKeys').then((m) => ({ default: m.SecurityPage })));
const TeamsPage = lazy(() => import('./features/activation/TeamsPage').then((m) => ({ default: m.TeamsPage })));
const ProtocolLibraryPage = lazy(() =>
  import('./features/admin/protocols/ProtocolLibraryPage').then((m) => ({ default: m.ProtocolLibraryPage })),
);
const ProtocolReviewPage = lazy(() =>
  import('./features/admin/protocols/ProtocolReviewPage').then((m) => ({ default: m.ProtocolReviewPage })),
);

const ConsultPage = lazy(() => import('./features/consult/ConsultPage').then((m) => ({ default: m.ConsultPage })));
const ReportPage = lazy(() => import('./features/arrival/ReportPage').then((m) => ({ default: m.ReportPage })));

/** Signed out, every address shows the sign-in form (no redirect, so a bookmarked address still works). */
export function App() {
  const token = useSessionToken();
  if (!token) return <SignInPage />;
  return <SignedIn />;
}

function SignedIn() {
  return (
    <IdleLock>
      <SignedInRoutes />
    </IdleLock>
  );
}

function SignedInRoutes() {
  const me = useMe();
  // Asked once the password question is settled: nothing else is answered before it.
  const mfa = useMfaStatus(me.data !== undefined && !needsPasswordChange(me.data));
  // A one-time password from an administrator is replaced before anything else (the server insists too).
  if (needsPasswordChange(me.data)) return <ChangePasswordPage user={me.data} />;
  // Then an authenticator, when the organisation requires one of this user (the server insists too).
  if (mfa.fetchStatus === 'fetching' && mfa.data === undefined) return null; // no board calls before the answer
  if (mfa.data?.required && !mfa.data.enrolled) return <MfaEnrolPage />;
  return (
    <PageSuspense>
      {/* Crews' calls ring on every screen of the console (issue 12). */}
      <IncomingCalls />
      {/* Recordings a console closed mid-call kept, sent now (decision 0042). */}
      <LeftRecordings />
      {/* A team activation calling this user shows on every screen of every console they have open. */}
      <TeamAlerts />
      {/* A charge nurse's offload alerts, likewise on every screen (decision 0038). */}
      <OffloadAlerts />
      <Routes>
        <Route path="/" element={<BoardPage />} />
        <Route path="/case/:hospitalId/:caseId" element={<CaseDetailPage />} />
        <Route path="/report/:hospitalId" element={<ReportPage />} />
        <Route path="/account/security" element={<SecurityPage />} />
        <Route path="/consult/:caseId" element={<ConsultPage />} />
        <Route path="/admin" element={<AdminLayout />}>
          <Route index element={<Navigate to="users" replace />} />
          <Route path="agencies" element={<AgenciesPage />} />
          <Route path="hospitals" element={<HospitalsPage />} />
          <Route path="complaint-sets" element={<ComplaintSetsPage />} />
          <Route path="users" element={<UsersPage />} />
          <Route path="audit-log" element={<AuditLogPage />} />
          <Route path="audit-trail" element={<AuditTrailPage />} />
          <Route path="protocol-questions" element={<ProtocolReviewPage />} />
          <Route path="teams" element={<TeamsPage />} />
          <Route path="protocol-library" element={<ProtocolLibraryPage />} />
          <Route path="*" element={<Navigate to="users" replace />} />
        </Route>
        <Route path="*" element={<Navigate to="/" replace />} />
      </Routes>
    </PageSuspense>
  );
}
