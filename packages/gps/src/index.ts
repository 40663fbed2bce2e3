export * from './fix';
export * from './nmea';
export * from './taip';
export * from './gpsStream';
export * from './fixLine';
