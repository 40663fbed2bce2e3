/**
 * The desktop host's GPS: one source (as the config says), one decoder, the freshest fix, the counters
 * and the last sentences for the installer's live view. A new config is applied by closing the old
 * source and opening the new one — no restart; if the new one cannot listen, the error is shown and
 * the config is still the one in force (the installer fixes it on /gpsSource).
 */
import type { DesktopGpsFix, GpsConfig, GpsCounters, GpsSentenceRecord, GpsStatus } from '@inbound/contract';
import { createGpsStreamDecoder, type GpsFix, type GpsStreamDecoder } from '@inbound/gps';
import { openGpsSource, type GpsSource } from './gpsSources';

/** How many of the last sentences the live view shows. */
export const RECENT_SENTENCES = 20;

export interface GpsServiceListener {
  onFix(fix: DesktopGpsFix): void;
  onStatusChange(): void;
}

export interface GpsService {
  apply(config: GpsConfig): Promise<void>;
  status(): GpsStatus;
  subscribe(listener: GpsServiceListener): () => void;
  close(): Promise<void>;
}

const emptyCounters = (): GpsCounters => ({
  received: 0,
  badChecksum: 0,
  invalid: 0,
  used: 0,
  repeated: 0,
  ignored: 0,
});

export function createGpsService(initial: GpsConfig, initialProblem: string | null = null): GpsService {
  let config = initial;
  let source: GpsSource | null = null;
  let decoder: GpsStreamDecoder = newDecoder(config);
  let problem: string | null = null;
  // A problem with twiageConfig.json stays shown until the installer saves a config.
  let fileProblem = initialProblem;
  let recent: GpsSentenceRecord[] = [];
  let lastFix: DesktopGpsFix | null = null;
  const listeners = new Set<GpsServiceListener>();
  // Applies run one after the other: a second save while a port is still closing waits its turn.
  let applying: Promise<void> = Promise.resolve();

  function newDecoder(forConfig: GpsConfig): GpsStreamDecoder {
    return createGpsStreamDecoder(forConfig.dataFormat, {
      onSentence: (sentence) => {
        recent = [{ at: new Date().toISOString(), ...sentence, text: sentence.text.slice(0, 200) }, ...recent].slice(
          0,
          RECENT_SENTENCES,
        );
      },
    });
  }

  function handOn(fixes: GpsFix[], receivedAt: Date): void {
    for (const fix of fixes) {
      const desktopFix: DesktopGpsFix = {
        time: fix.time,
        lat: fix.lat,
        lon: fix.lon,
        speedMps: fix.speedMps,
        course: fix.course,
        format: fix.format,
        sentence: fix.sentence,
        ...(fix.quality === undefined ? {} : { quality: fix.quality }),
        ...(fix.vehicleId === undefined ? {} : { vehicleId: fix.vehicleId }),
        receivedAt: receivedAt.toISOString(),
      };
      lastFix = desktopFix;
      for (const listener of listeners) listener.onFix(desktopFix);
    }
    changed();
  }

  function changed(): void {
    for (const listener of listeners) listener.onStatusChange();
  }

  async function open(next: GpsConfig): Promise<void> {
    if (source) {
      const closing = source;
      source = null;
      await closing.close();
    }
    config = next;
    decoder = newDecoder(next);
    recent = [];
    lastFix = null;
    problem = fileProblem;
    fileProblem = null;
    if (next.source === 'browser') return changed();
    const current = decoder;
    try {
      source = await openGpsSource(next, {
        onDatagram: (bytes) => {
          const receivedAt = new Date();
          handOn(current.pushDatagram(bytes, receivedAt), receivedAt);
        },
        onStreamData: (bytes) => {
          const receivedAt = new Date();
          handOn(current.pushStream(bytes, receivedAt), receivedAt);
        },
        onStreamEnd: () => {
          current.endStream();
          changed();
        },
        onProblem: (text) => {
          problem = text;
          changed();
        },
      });
    } catch (error) {
      problem = describeListenError(error, next);
    }
    changed();
  }

  return {
    apply(next) {
      applying = applying.then(() => open(next));
      return applying;
    },
    status() {
      return {
        config,
        listening: source?.description ?? null,
        error: problem,
        counters: config.source === 'modem' ? { ...decoder.counters } : emptyCounters(),
        recent,
        lastFix,
      };
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      await applying;
      await source?.close();
      source = null;
    },
  };
}

function describeListenError(error: unknown, config: GpsConfig): string {
  const code = (error as NodeJS.ErrnoException).code;
  const where = `${config.portType} ${config.host}:${String(config.port)}`;
  if (code === 'EADDRINUSE') return `${where}: the port is in use by another program`;
  if (code === 'EADDRNOTAVAIL') return `${where}: this computer has no such address`;
  if (code === 'EACCES') return `${where}: not allowed to listen on this port`;
  return `${where}: ${(error as Error).message}`;
}
