import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { FIT, MAX_SCALE, PAN_STEP, panBy, wheelScale, ZOOM_STEP, zoomAt, type View } from './zoom';

export interface MediaViewerProps {
  src: string;
  /** What the picture is, e.g. "EKG, 14:02": the dialog's name and the image's alt text. */
  title: string;
  onClose: () => void;
}

type Point = { x: number; y: number };

/**
 * A photo, ID or 12-lead full screen, to read the fine print of an EKG: wheel or pinch zooms about the
 * cursor or the fingers, dragging pans, double-click toggles 1×/3×. Keyboard: + and − zoom, 0 fits,
 * arrows pan, Esc closes; focus stays in the dialog and returns to the thumbnail after closing.
 */
export function MediaViewer({ src, title, onClose }: MediaViewerProps) {
  const [view, setView] = useState<View>(FIT);
  const [failed, setFailed] = useState(false);
  const stage = useRef<HTMLDivElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const pointers = useRef(new Map<number, Point>());
  const pinch = useRef<{ distance: number; mid: Point } | null>(null);

  // Focus into the dialog on open; give it back to whatever opened it on close.
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    closeButton.current?.focus();
    return () => opener?.focus();
  }, []);

  /** A client point as stage coordinates relative to the stage's centre. */
  const fromClient = (clientX: number, clientY: number): Point => {
    const box = stage.current?.getBoundingClientRect();
    if (!box) return { x: 0, y: 0 };
    return { x: clientX - (box.left + box.width / 2), y: clientY - (box.top + box.height / 2) };
  };

  // A zoom button that reaches its limit turns disabled while it has focus (clicked or tabbed to), and the
  // browser then drops focus to the page, where Esc and the arrow keys no longer reach the dialog.
  useEffect(() => {
    const active = document.activeElement;
    if (active instanceof HTMLButtonElement && active.disabled) stage.current?.focus();
  }, [view.scale]);

  // React's wheel listener is passive; this one must not be, or the page behind would scroll.
  useEffect(() => {
    const element = stage.current;
    if (!element) return undefined;
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      const point = fromClient(event.clientX, event.clientY);
      setView((current) => zoomAt(current, wheelScale(current.scale, event.deltaY), point));
    };
    element.addEventListener('wheel', onWheel, { passive: false });
    return () => element.removeEventListener('wheel', onWheel);
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    switch (event.key) {
      case 'Escape':
        event.preventDefault();
        onClose();
        return;
      case '+':
      case '=':
        setView((current) => zoomAt(current, current.scale * ZOOM_STEP));
        break;
      case '-':
      case '_':
        setView((current) => zoomAt(current, current.scale / ZOOM_STEP));
        break;
      case '0':
        setView(FIT);
        break;
      case 'ArrowLeft':
        setView((current) => panBy(current, PAN_STEP, 0));
        break;
      case 'ArrowRight':
        setView((current) => panBy(current, -PAN_STEP, 0));
        break;
      case 'ArrowUp':
        setView((current) => panBy(current, 0, PAN_STEP));
        break;
      case 'ArrowDown':
        setView((current) => panBy(current, 0, -PAN_STEP));
        break;
      case 'Tab': {
        // Keep Tab inside the dialog.
        const focusable = [
          ...(event.currentTarget.querySelectorAll<HTMLElement>('button:not([disabled]), [tabindex="0"]') ?? []),
        ];
        const first = focusable[0];
        const last = focusable.at(-1);
        if (event.shiftKey && document.activeElement === first) {
          event.preventDefault();
          last?.focus();
        } else if (!event.shiftKey && document.activeElement === last) {
          event.preventDefault();
          first?.focus();
        }
        return;
      }
      default:
        return;
    }
    event.preventDefault();
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    event.currentTarget.setPointerCapture?.(event.pointerId);
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    pinch.current = pinchOf(pointers.current);
  };

  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const previous = pointers.current.get(event.pointerId);
    if (!previous) return;
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (pointers.current.size >= 2) {
      const now = pinchOf(pointers.current);
      const before = pinch.current;
      pinch.current = now;
      if (!now || !before || before.distance === 0) return;
      const mid = fromClient(now.mid.x, now.mid.y);
      setView((current) =>
        panBy(
          zoomAt(current, current.scale * (now.distance / before.distance), mid),
          now.mid.x - before.mid.x,
          now.mid.y - before.mid.y,
        ),
      );
      return;
    }
    setView((current) => panBy(current, event.clientX - previous.x, event.clientY - previous.y));
  };

  const onPointerEnd = (event: PointerEvent<HTMLDivElement>) => {
    pointers.current.delete(event.pointerId);
    pinch.current = pinchOf(pointers.current);
  };

  const percent = Math.round(view.scale * 100);
  return (
    <div
      className="viewer"
      role="dialog"
      aria-modal="true"
      aria-label={title}
      onKeyDown={onKeyDown}
      data-testid="media-viewer"
    >
      <div className="viewer-bar">
        <h2 className="viewer-title">{title}</h2>
        <div className="viewer-actions">
          <button
            type="button"
            className="viewer-button"
            onClick={() => setView((current) => zoomAt(current, current.scale / ZOOM_STEP))}
            disabled={view.scale <= 1}
            aria-label="Zoom out"
          >
            −
          </button>
          <output className="viewer-scale" aria-live="polite" aria-label="Zoom level" data-testid="viewer-scale">
            {percent}%
          </output>
          <button
            type="button"
            className="viewer-button"
            onClick={() => setView((current) => zoomAt(current, current.scale * ZOOM_STEP))}
            disabled={view.scale >= MAX_SCALE}
            aria-label="Zoom in"
          >
            +
          </button>
          <button
            type="button"
            className="viewer-button viewer-fit"
            onClick={() => setView(FIT)}
            disabled={view.scale === 1}
          >
            Fit
          </button>
          <button ref={closeButton} type="button" className="viewer-button viewer-close" onClick={onClose}>
            Close <span aria-hidden="true">✕</span>
          </button>
        </div>
      </div>
      <div
        ref={stage}
        className={view.scale > 1 ? 'viewer-stage viewer-stage-zoomed' : 'viewer-stage'}
        tabIndex={0}
        aria-label={`${title}: scroll or pinch to zoom, drag or use the arrow keys to move, Esc to close`}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerEnd}
        onPointerCancel={onPointerEnd}
        onDoubleClick={(event) => {
          const point = fromClient(event.clientX, event.clientY);
          setView((current) => (current.scale > 1 ? FIT : zoomAt(current, 3, point)));
        }}
      >
        {failed ? (
          <p className="viewer-error" role="alert">
            The picture could not be loaded. Close and open it again.
          </p>
        ) : (
          <img
            src={src}
            alt={title}
            className="viewer-image"
            draggable={false}
            onError={() => setFailed(true)}
            style={{ transform: `translate(${view.x}px, ${view.y}px) scale(${view.scale})` }}
            data-testid="viewer-image"
          />
        )}
      </div>
      <p className="viewer-help">Scroll or pinch to zoom · drag or arrow keys to move · + − 0 · Esc closes</p>
    </div>
  );
}

function pinchOf(pointers: Map<number, Point>): { distance: number; mid: Point } | null {
  const [a, b] = [...pointers.values()];
  if (!a || !b) return null;
  return {
    distance: Math.hypot(a.x - b.x, a.y - b.y),
    mid: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 },
  };
}
