/** Test helpers: what a vehicle modem sends, and a free port for it. */
import { createSocket } from 'node:dgram';

/** A TAIP PV report of the present moment (GPS time of day), with its checksum. */
export function taipNow(lat = 40.27284, lon = -78.8471): string {
  const secondsOfDay = Math.floor((Date.now() / 1000 + 18) % 86_400);
  const sign = (value: number, width: number) =>
    `${value < 0 ? '-' : '+'}${String(Math.round(Math.abs(value) * 1e5)).padStart(width, '0')}`;
  const text = `>RPV${String(secondsOfDay).padStart(5, '0')}${sign(lat, 7)}${sign(lon, 8)}00009012;ID=AMB7;*`;
  let sum = 0;
  for (const char of text) sum ^= char.charCodeAt(0);
  return `${text}${sum.toString(16).toUpperCase().padStart(2, '0')}<`;
}

/** A UDP port free on 127.0.0.1 right now (the OS picks it). */
export function freeUdpPort(): Promise<number> {
  return new Promise((resolve) => {
    const socket = createSocket('udp4');
    socket.bind(0, '127.0.0.1', () => {
      const { port } = socket.address();
      socket.close(() => resolve(port));
    });
  });
}
