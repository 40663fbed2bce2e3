/**
 * Which variant this build is (spec §1): the web app, or the desktop variant (`vite build --mode desktop`,
 * served by apps/desktop: hash routing, the vehicle modem's GPS, /gpsSource). `__INBOUND_DESKTOP__` is
 * replaced by a literal `true` / `false` wherever it is written (vite.config.ts `define`), so the web
 * build drops every desktop branch and carries none of the desktop's code. Use it directly in a
 * condition; a copy in a variable would keep the branches alive.
 */
declare global {
  const __INBOUND_DESKTOP__: boolean;
}

export {};
