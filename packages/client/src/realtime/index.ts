export * from './realtimeClient';
export * from './reconnectDelay';
export * from './seqStore';
export * from './channels';
