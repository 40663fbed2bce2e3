export * from './apiClient';
export * from './routeRequest';
export * from './realtime/index';
export * from './fieldErrors';
