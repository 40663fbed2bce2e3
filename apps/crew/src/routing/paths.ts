/** Every route of the crew app (spec §2). /gpsSource exists in the desktop build only. */
export const paths = {
  login: '/',
  start: '/start',
  teamSelection: '/team-selection',
  truckSelection: '/truck-selection',
  settings: '/settings',
  shift: '/shift',
  case: '/case',
  security: '/security',
  changePassword: '/changePassword',
  caseFeedbackSettings: '/caseFeedbackSettings',
  protocol: '/protocol',
  gpsSource: '/gpsSource',
} as const;

export type AppPath = (typeof paths)[keyof typeof paths];

export const knownPaths: readonly string[] = Object.values(paths).filter(
  (path) => path !== paths.gpsSource || __INBOUND_DESKTOP__,
);
