/**
 * The desktop variant's GPS (spec §3 "GPS config", §9 GPS defaults): the config the installer sets on
 * `/gpsSource` (kept by the desktop host in `twiageConfig.json`) and the messages the host sends the
 * crew app over its local WebSocket. Only the desktop build and host use these.
 */
import { z } from 'zod';

/** Where the ambulance's position comes from: the vehicle modem, or the browser's geolocation only. */
export const GPS_SOURCES = ['modem', 'browser'] as const;
/** How the modem reaches this computer: UDP over IPv4 or IPv6, a TCP connection, or a serial line. */
export const GPS_PORT_TYPES = ['udp4', 'udp6', 'tcp', 'serial'] as const;
export const GPS_DATA_FORMATS = ['TAIP', 'NMEA'] as const;
export const GPS_BAUD_RATES = [4800, 9600, 19200, 38400, 57600, 115200] as const;

/** Spec §9: udp4, port 21000, TAIP. Host 0.0.0.0: every address of this computer (the modem's LAN side). */
export const GPS_CONFIG_DEFAULTS = {
  source: 'modem',
  portType: 'udp4',
  port: 21000,
  host: '0.0.0.0',
  dataFormat: 'TAIP',
  baudRate: 4800,
} as const;

/** A modem fix older than this (or no fix for this long) and the app falls back to the browser. */
export const GPS_QUIET_MS = 30_000;

/** The config file's name (spec §9). */
export const GPS_CONFIG_FILE = 'twiageConfig.json';

const IPV4 = z.ipv4();
const IPV6 = z.ipv6();

/**
 * `port` is a UDP/TCP port number, or for a serial line the device (`/dev/ttyUSB0`, `COM3`). `host` is
 * the local address to listen on (network only). Each problem is reported on its own field.
 */
export const GpsConfig = z
  .object({
    source: z.enum(GPS_SOURCES, { message: 'Choose the modem or the browser' }),
    portType: z.enum(GPS_PORT_TYPES, { message: 'Choose udp4, udp6, tcp or serial' }),
    port: z.union([z.number(), z.string()], { message: 'Enter a port' }),
    host: z.string().trim().max(100),
    dataFormat: z.enum(GPS_DATA_FORMATS, { message: 'Choose TAIP or NMEA' }),
    baudRate: z
      .union(
        GPS_BAUD_RATES.map((rate) => z.literal(rate)),
        { message: `Baud rate must be one of ${GPS_BAUD_RATES.join(', ')}` },
      )
      .default(GPS_CONFIG_DEFAULTS.baudRate),
  })
  .superRefine((config, ctx) => {
    if (config.portType === 'serial') {
      if (typeof config.port !== 'string' || !/^(\/dev\/[\w./-]+|COM\d{1,3}|\\\\\.\\COM\d{1,3})$/.test(config.port))
        ctx.addIssue({ code: 'custom', path: ['port'], message: 'Enter the serial device, e.g. /dev/ttyUSB0 or COM3' });
      return;
    }
    const port = typeof config.port === 'string' && /^\d+$/.test(config.port) ? Number(config.port) : config.port;
    if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535)
      ctx.addIssue({ code: 'custom', path: ['port'], message: 'Port must be a whole number from 1 to 65535' });
    const v4 = IPV4.safeParse(config.host).success;
    const v6 = IPV6.safeParse(config.host).success;
    if (config.portType === 'udp4' && !v4)
      ctx.addIssue({ code: 'custom', path: ['host'], message: 'Enter an IPv4 address (0.0.0.0 for every one)' });
    if (config.portType === 'udp6' && !v6)
      ctx.addIssue({ code: 'custom', path: ['host'], message: 'Enter an IPv6 address (:: for every one)' });
    if (config.portType === 'tcp' && !v4 && !v6)
      ctx.addIssue({ code: 'custom', path: ['host'], message: 'Enter an IP address (0.0.0.0 for every one)' });
  })
  .transform((config) => (config.portType === 'serial' ? config : { ...config, port: Number(config.port) }));
export type GpsConfig = z.output<typeof GpsConfig>;
export type GpsConfigInput = z.input<typeof GpsConfig>;

/** The field errors of a config the host refused: `{ message, fieldErrors: { port: '…' } }`. */
export const GpsConfigError = z.object({
  message: z.string(),
  fieldErrors: z.record(z.string(), z.string()),
});
export type GpsConfigError = z.infer<typeof GpsConfigError>;

/** One fix from the modem, as the host hands it on (times ISO 8601). */
export const DesktopGpsFix = z.object({
  time: z.string(),
  lat: z.number().min(-90).max(90),
  lon: z.number().min(-180).max(180),
  speedMps: z.number().nullable(),
  course: z.number().nullable(),
  format: z.enum(GPS_DATA_FORMATS),
  sentence: z.string(),
  quality: z.number().optional(),
  vehicleId: z.string().optional(),
  /** When the host received it (its clock, which is the app's). */
  receivedAt: z.string(),
});
export type DesktopGpsFix = z.infer<typeof DesktopGpsFix>;

export const GpsCounters = z.object({
  received: z.number(),
  badChecksum: z.number(),
  invalid: z.number(),
  used: z.number(),
  repeated: z.number(),
  ignored: z.number(),
});
export type GpsCounters = z.infer<typeof GpsCounters>;

export const GpsSentenceRecord = z.object({
  at: z.string(),
  text: z.string(),
  result: z.enum(['used', 'badChecksum', 'invalid', 'repeated', 'ignored', 'quality']),
  reason: z.string().optional(),
});
export type GpsSentenceRecord = z.infer<typeof GpsSentenceRecord>;

/** The installer's live view: what the host listens on, what came in, what it made of it. */
export const GpsStatus = z.object({
  config: GpsConfig,
  /** e.g. "udp4 0.0.0.0:21000", "serial /dev/ttyUSB0 at 4800 baud". */
  listening: z.string().nullable(),
  /** Why the source is not listening (port in use, device missing), in words. */
  error: z.string().nullable(),
  counters: GpsCounters,
  recent: z.array(GpsSentenceRecord),
  lastFix: DesktopGpsFix.nullable(),
});
export type GpsStatus = z.infer<typeof GpsStatus>;

/** Host → app over `DESKTOP_GPS_SOCKET_PATH`. A fix goes out at once; the status at most twice a second. */
export const DesktopGpsMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('fix'), fix: DesktopGpsFix }),
  z.object({ type: z.literal('status'), status: GpsStatus }),
]);
export type DesktopGpsMessage = z.infer<typeof DesktopGpsMessage>;

/** The desktop host's own paths on its local origin (never proxied to the server). */
export const DESKTOP_GPS_SOCKET_PATH = '/desktop/gps';
export const DESKTOP_GPS_CONFIG_PATH = '/desktop/gps/config';
