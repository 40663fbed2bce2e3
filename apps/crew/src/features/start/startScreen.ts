/**
 * What Start (StartPage.tsx) and its static shell in start.html (build/startShell.ts) share: the screen's
 * own texts and the envelope's drawing (decision 0043). The build imports this file directly, so it imports
 * nothing: the contract's messages (the tagline, START CASE, …) the build takes from their own file.
 */
export const startTexts = {
  title: 'Inbound',
  settings: 'Settings',
  messageCenter: 'Message Center',
  welcome: 'Welcome,',
  logout: 'Logout',
  shiftEnds: 'Shift Ends',
  team: 'Team',
  truck: 'Truck',
  caseTransfer: 'Case Transfer',
  protocols: 'Protocols',
} as const;

/** The Message Center envelope's path (a 24×24 viewBox, drawn 30×30 with a 2-unit stroke). */
export const ENVELOPE_PATH = 'M3 6.5h18v11H3zM3.5 7l8.5 6.5L20.5 7';
