import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';

/** Back in history when the app has history of its own, otherwise to `fallback`. */
export function useGoBack(fallback: string): () => void {
  const navigate = useNavigate();
  const location = useLocation();
  return useCallback(() => {
    if (location.key !== 'default') void navigate(-1);
    else void navigate(fallback, { replace: true });
  }, [location.key, navigate, fallback]);
}
