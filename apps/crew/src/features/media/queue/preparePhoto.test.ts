// preparePhoto itself needs a real canvas (jsdom has none): it runs in Chromium in
// e2e/tests/media-resume.spec.ts ("preparePhoto …") and bench/media-send.ts. Here: the size rule.
import { describe, expect, it } from 'vitest';
import { PHOTO_LONG_SIDE_PX } from '@inbound/contract';
import { fitLongSide } from './preparePhoto';

describe('fitLongSide', () => {
  it('scales the long side down to 1440 px, keeping the aspect', () => {
    expect(PHOTO_LONG_SIDE_PX).toBe(1440);
    expect(fitLongSide(4032, 3024)).toEqual({ width: 1440, height: 1080 });
    expect(fitLongSide(3024, 4032)).toEqual({ width: 1080, height: 1440 });
    expect(fitLongSide(1920, 1080)).toEqual({ width: 1440, height: 810 });
  });

  it('never enlarges a small picture, and never goes below 1 px', () => {
    expect(fitLongSide(1280, 720)).toEqual({ width: 1280, height: 720 });
    expect(fitLongSide(100_000, 10)).toEqual({ width: 1440, height: 1 });
  });
});
