import { Navigate, Route, Routes } from 'react-router';
import { SignInPage } from './features/auth/SignInPage';
import { useSessionToken } from './features/auth/useSession';
import { BoardPage } from './features/board/BoardPage';
import { CaseDetailPage } from './features/case/CaseDetailPage';

/** Signed out, every address shows the sign-in form (no redirect, so a bookmarked address still works). */
export function App() {
  const token = useSessionToken();
  if (!token) return <SignInPage />;
  return (
    <Routes>
      <Route path="/" element={<BoardPage />} />
      <Route path="/case/:hospitalId/:caseId" element={<CaseDetailPage />} />
      <Route path="*" element={<Navigate to="/" replace />} />
    </Routes>
  );
}
