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
