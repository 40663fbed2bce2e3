import { lazy } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { ChangePasswordPage, needsPasswordChange } from './features/auth/ChangePasswordPage';
import { useMe } from './features/auth/queries';
import { SignInPage } from './features/auth/SignInPage';
import { useSessionToken } from './features/auth/useSession';
import { BoardPage } from './features/board/BoardPage';
import { PageSuspense } from './lib/PageSuspense';

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
const ProtocolLibraryPage = lazy(() =>
  import('./features/admin/protocols/ProtocolLibraryPage').then((m) => ({ default: m.ProtocolLibraryPage })),
);
const ProtocolReviewPage = lazy(() =>
  import('./features/admin/protocols/ProtocolReviewPage').then((m) => ({ default: m.ProtocolReviewPage })),
);

/** Signed out, every address shows the sign-in form (no redirect, so a bookmarked address still works). */
export function App() {
  const token = useSessionToken();
  if (!token) return <SignInPage />;
  return <SignedIn />;
}

function SignedIn() {
  const me = useMe();
  // A one-time password from an administrator is replaced before anything else (the server insists too).
  if (needsPasswordChange(me.data)) return <ChangePasswordPage user={me.data} />;
  return (
    <PageSuspense>
      <Routes>
        <Route path="/" element={<BoardPage />} />
        <Route path="/case/:hospitalId/:caseId" element={<CaseDetailPage />} />
        <Route path="/admin" element={<AdminLayout />}>
          <Route index element={<Navigate to="users" replace />} />
          <Route path="agencies" element={<AgenciesPage />} />
          <Route path="hospitals" element={<HospitalsPage />} />
          <Route path="complaint-sets" element={<ComplaintSetsPage />} />
          <Route path="users" element={<UsersPage />} />
          <Route path="audit-log" element={<AuditLogPage />} />
          <Route path="protocol-questions" element={<ProtocolReviewPage />} />
          <Route path="protocol-library" element={<ProtocolLibraryPage />} />
          <Route path="*" element={<Navigate to="users" replace />} />
        </Route>
        <Route path="*" element={<Navigate to="/" replace />} />
      </Routes>
    </PageSuspense>
  );
}
