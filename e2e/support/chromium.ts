/**
 * How the browser tests launch Chromium: Debian's build, never a downloaded one (`playwright install` is
 * not used in this project — see docs/decisions). The flags keep it from phoning home and from using a GPU
 * the test machines do not have; `--no-sandbox` because CI runs as root.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/lib/chromium/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/**
 * The phone the crew tests use, 390 × 844 with touch, at one device pixel per CSS pixel: the apps lay out
 * in CSS pixels whatever the screen's density, and a phone's 2× costs Chromium's software rasteriser four
 * times the pixels in every test. The screen gallery (screens.spec.ts), which people look at, is drawn at 2×.
 */
export const PHONE_SCREEN = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 1,
  isMobile: true,
  hasTouch: true,
};
