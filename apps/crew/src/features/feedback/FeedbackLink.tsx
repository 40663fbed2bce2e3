import { lazy, Suspense, useState } from 'react';

const FeedbackModal = lazy(() => import('./FeedbackModal').then((module) => ({ default: module.FeedbackModal })));

/** The Feedback link of every screen but login (spec §2). */
export function FeedbackLink() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="footer__link" onClick={() => setOpen(true)}>
        Feedback
      </button>
      {open && (
        <Suspense fallback={null}>
          <FeedbackModal onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
