/**
 * A captured still, made small on the device before it is queued (issue 6 item 2, docs/media.md "Photo
 * guidance"): scaled to a long side of `PHOTO_LONG_SIDE_PX` (1440 px — every 1 mm square of a 12-lead
 * stays above 4 px) and encoded as JPEG at `PHOTO_JPEG_QUALITY` (0.8); if that is still above
 * `PHOTO_TARGET_BYTES` (400 KB) it is encoded once more at 0.7. Drawing on a canvas and encoding anew
 * also drops EXIF (the camera's GPS position, the device). A picture smaller than 1440 px is not
 * enlarged. A Blob is decoded with its EXIF orientation applied, so the picture stays upright.
 */
import { PHOTO_JPEG_QUALITY, PHOTO_LONG_SIDE_PX, PHOTO_TARGET_BYTES } from '@inbound/contract';

export const PHOTO_FALLBACK_QUALITY = 0.7;

type Source = Blob | HTMLCanvasElement | ImageBitmap;
type AnyCanvas = HTMLCanvasElement | OffscreenCanvas;

/** Width and height after scaling the long side down to `longSide` (never up). */
export function fitLongSide(width: number, height: number, longSide = PHOTO_LONG_SIDE_PX) {
  const scale = Math.min(1, longSide / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

export async function preparePhoto(source: Source): Promise<Blob> {
  let bitmap: ImageBitmap | null = null;
  let image: CanvasImageSource;
  let width: number;
  let height: number;
  if (source instanceof Blob) {
    if (typeof createImageBitmap !== 'function') throw new Error('This browser cannot read the picture.');
    bitmap = await createImageBitmap(source, { imageOrientation: 'from-image' });
    image = bitmap;
    ({ width, height } = bitmap);
  } else {
    image = source;
    ({ width, height } = source);
  }
  try {
    if (!width || !height) throw new Error('The picture is empty.');
    const size = fitLongSide(width, height);
    const canvas = makeCanvas(size.width, size.height);
    const context = canvas.getContext('2d') as CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D | null;
    if (!context) throw new Error('This browser cannot draw the picture.');
    context.imageSmoothingEnabled = true;
    context.imageSmoothingQuality = 'high';
    context.drawImage(image, 0, 0, size.width, size.height);
    const first = await encodeJpeg(canvas, PHOTO_JPEG_QUALITY);
    if (first.size <= PHOTO_TARGET_BYTES) return first;
    const second = await encodeJpeg(canvas, PHOTO_FALLBACK_QUALITY);
    return second.size < first.size ? second : first;
  } finally {
    bitmap?.close();
  }
}

function makeCanvas(width: number, height: number): AnyCanvas {
  if (typeof OffscreenCanvas !== 'undefined') return new OffscreenCanvas(width, height);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  return canvas;
}

function encodeJpeg(canvas: AnyCanvas, quality: number): Promise<Blob> {
  if (!(typeof HTMLCanvasElement !== 'undefined' && canvas instanceof HTMLCanvasElement)) {
    return (canvas as OffscreenCanvas).convertToBlob({ type: 'image/jpeg', quality });
  }
  return new Promise<Blob>((resolve, reject) => {
    canvas.toBlob(
      (blob) =>
        blob && blob.type === 'image/jpeg' ? resolve(blob) : reject(new Error('The picture could not be encoded.')),
      'image/jpeg',
      quality,
    );
  });
}
