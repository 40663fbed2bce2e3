import { useEffect, useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

interface ModalProps {
  title: string;
  /** Hide the title visually but keep it as the dialog's name. */
  hideTitle?: boolean;
  onClose: () => void;
  children: ReactNode;
  role?: 'dialog' | 'alertdialog';
  /** Buttons, laid out full-width at the bottom. */
  actions?: ReactNode;
  wide?: boolean;
  /** A tap on the dimmed page around the dialog closes it too (for dialogs with no Cancel button). */
  closeOnBackdrop?: boolean;
}

/** Open modals, innermost last: Escape closes only the innermost. */
const openModals: symbol[] = [];

/** A modal dialog: named by its title, Escape closes it, focus moves into it and back when it closes. */
export function Modal({
  title,
  hideTitle = false,
  onClose,
  children,
  role = 'dialog',
  actions,
  wide = false,
  closeOnBackdrop = false,
}: ModalProps) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const closeRef = useRef(onClose);

  useEffect(() => {
    closeRef.current = onClose;
  });

  useEffect(() => {
    const self = Symbol('modal');
    openModals.push(self);
    const previouslyFocused = document.activeElement as HTMLElement | null;
    // The field marked to take focus wins over anything before it (the Age dialog's number field, not its
    // unit buttons: the numeric keypad opens at once).
    const first =
      panel.current?.querySelector<HTMLElement>('[data-autofocus]') ??
      panel.current?.querySelector<HTMLElement>('input, textarea, button');
    (first ?? panel.current)?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (openModals.at(-1) !== self) return;
      if (event.key === 'Escape') closeRef.current();
      if (event.key === 'Tab' && panel.current) keepFocusInside(panel.current, event);
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      openModals.splice(openModals.indexOf(self), 1);
      previouslyFocused?.focus?.();
    };
  }, []);

  // In a portal: a modal opened from the top bar must not inherit its colours or its stacking.
  return createPortal(
    <div
      className="modal-backdrop"
      onClick={
        closeOnBackdrop
          ? (event) => {
              if (event.target === event.currentTarget) closeRef.current();
            }
          : undefined
      }
    >
      <div
        ref={panel}
        className={wide ? 'modal modal--wide' : 'modal'}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
      >
        <h2 id={titleId} className={hideTitle ? 'visually-hidden' : 'modal__title'}>
          {title}
        </h2>
        <div className="modal__body">{children}</div>
        {actions && <div className="modal__actions">{actions}</div>}
      </div>
    </div>,
    document.body,
  );
}

const focusable =
  'a[href], button:not([disabled]), input:not([disabled]), textarea:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Tab and Shift+Tab cycle within the dialog instead of leaving it for the page behind. */
function keepFocusInside(container: HTMLElement, event: KeyboardEvent): void {
  const items = Array.from(container.querySelectorAll<HTMLElement>(focusable));
  const first = items[0];
  const last = items.at(-1);
  if (!first || !last) return;
  if (event.shiftKey && (document.activeElement === first || !container.contains(document.activeElement))) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}
