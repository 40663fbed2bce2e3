export * from './apiClient';
export * from './routeRequest';
export * from './realtime/index';
export * from './calls/callPeer';
export * from './calls/callDisplay';
export * from './calls/consultMesh';
export * from './calls/videoSteps';
export * from './fieldErrors';
