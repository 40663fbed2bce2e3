import { Suspense, type ReactNode } from 'react';

/** Holds the place of a lazily loaded page (case detail, administration) for the moment it takes to arrive. */
export function PageSuspense({ children }: { children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <p className="page-loading" role="status">
          Loading…
        </p>
      }
    >
      {children}
    </Suspense>
  );
}
