export * from './constants.js';
export * from './messages.js';
export * from './entities.js';
export * from './api.js';
export * from './auth-header.js';
export * from './route-types.js';
export * from './case.js';
export * from './paths.js';
