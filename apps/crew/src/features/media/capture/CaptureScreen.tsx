import { useEffect, useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

/**
 * The full-screen frame of a capture screen (camera preview, still, recording): dark, so the picture is
 * what the eye sees; a Close button top left; the actions big at the bottom, within a gloved thumb's reach.
 * Escape closes it. Focus moves in when it opens and back when it closes.
 */
export function CaptureScreen({
  title,
  onClose,
  children,
  actions,
  status,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  actions: ReactNode;
  /** A line above the actions (elapsed time, an error). */
  status?: ReactNode;
}) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const closeRef = useRef(onClose);
  useEffect(() => {
    closeRef.current = onClose;
  });
  useEffect(() => {
    const previouslyFocused = document.activeElement as HTMLElement | null;
    panel.current?.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') closeRef.current();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      previouslyFocused?.focus?.();
    };
  }, []);
  return createPortal(
    <div ref={panel} className="capture" role="dialog" aria-modal="true" aria-labelledby={titleId}>
      <header className="capture__bar">
        <button type="button" className="capture__close" onClick={onClose}>
          Close
        </button>
        <h2 id={titleId} className="capture__title">
          {title}
        </h2>
      </header>
      <div className="capture__stage">{children}</div>
      {status && <div className="capture__status">{status}</div>}
      <div className="capture__actions">{actions}</div>
    </div>,
    document.body,
  );
}

/** Camera switch: shown only where the device has more than one camera (spec §4 live consult, issue 6). */
export function SwitchCameraButton({ onSwitch, disabled }: { onSwitch: () => void; disabled?: boolean }) {
  return (
    <button type="button" className="capture__switch" onClick={onSwitch} disabled={disabled}>
      <svg width="28" height="28" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <path
          fill="currentColor"
          d="M20 5h-3.2L15 3H9L7.2 5H4a2 2 0 0 0-2 2v12a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2V7a2 2 0 0 0-2-2zm-8 13a5 5 0 0 1-4.9-4H5l3-3 3 3H9.1a3 3 0 0 0 4.8 1.6l1.4 1.4A5 5 0 0 1 12 18zm4-5-3-3h1.9a3 3 0 0 0-4.8-1.6L8.7 7A5 5 0 0 1 16.9 10H19z"
        />
      </svg>
      Switch camera
    </button>
  );
}
