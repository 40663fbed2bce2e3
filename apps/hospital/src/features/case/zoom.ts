/**
 * The geometry of the full-screen viewer (pure, tested): the picture is drawn centred in the stage as
 * `translate(x, y) scale(scale)` about its own centre. Zooming about a point keeps that point of the
 * picture under the cursor (or between the two fingers); at 1× the picture is centred again.
 */
export interface View {
  scale: number;
  x: number;
  y: number;
}

export const MIN_SCALE = 1;
export const MAX_SCALE = 8;
export const FIT: View = { scale: 1, x: 0, y: 0 };
/** One key press or button tap. */
export const ZOOM_STEP = 1.5;
/** One arrow key press pans this many CSS pixels. */
export const PAN_STEP = 80;

const clampScale = (scale: number) => Math.min(MAX_SCALE, Math.max(MIN_SCALE, scale));

/**
 * The view zoomed to `scale` about `point` (stage coordinates relative to the stage's centre): the
 * picture point under it stays put.
 */
export function zoomAt(view: View, scale: number, point: { x: number; y: number } = { x: 0, y: 0 }): View {
  const next = clampScale(scale);
  if (next === MIN_SCALE) return FIT;
  const ratio = next / view.scale;
  return {
    scale: next,
    x: point.x - (point.x - view.x) * ratio,
    y: point.y - (point.y - view.y) * ratio,
  };
}

/** The view moved by (dx, dy); the picture cannot be dragged away at 1×. */
export function panBy(view: View, dx: number, dy: number): View {
  if (view.scale <= MIN_SCALE) return FIT;
  return { ...view, x: view.x + dx, y: view.y + dy };
}

/** A wheel step: scrolling up (negative deltaY) zooms in, smoothly for trackpads. */
export function wheelScale(scale: number, deltaY: number): number {
  return clampScale(scale * Math.exp(-deltaY / 300));
}
