/** Every route of the crew app (spec §2). The desktop build (later) adds /gpsSource. */
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
} as const;

export type AppPath = (typeof paths)[keyof typeof paths];

export const knownPaths: readonly string[] = Object.values(paths);
