/**
 * The last sequence number seen per channel, kept on the device so that a reload (or a tablet that
 * killed the tab) resumes each channel where it stopped: the gateway then replays exactly what was
 * missed. Only channel names and numbers — no patient data — so plain localStorage (synchronous, read
 * before the first subscribe) is enough. Cleared on logout.
 */
export interface SeqStore {
  get(channel: string): number | undefined;
  set(channel: string, seq: number): void;
  clear(): void;
}

const KEY = 'inbound-realtime-seq';

export function createLocalSeqStore(storage: Storage | null = safeLocalStorage()): SeqStore {
  let cache: Record<string, number> | null = null;
  const read = (): Record<string, number> => {
    if (cache) return cache;
    try {
      const parsed = JSON.parse(storage?.getItem(KEY) ?? '{}') as unknown;
      cache = parsed && typeof parsed === 'object' ? (parsed as Record<string, number>) : {};
    } catch {
      cache = {};
    }
    return cache;
  };
  return {
    get(channel) {
      const value = read()[channel];
      return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
    },
    set(channel, seq) {
      const all = read();
      all[channel] = seq;
      try {
        storage?.setItem(KEY, JSON.stringify(all));
      } catch {
        // A full or refused storage only costs a replay from live after a reload; the session keeps working.
      }
    },
    clear() {
      cache = {};
      try {
        storage?.removeItem(KEY);
      } catch {
        // Nothing to clear.
      }
    },
  };
}

/** In memory only (tests, and browsers that refuse localStorage). */
export function createMemorySeqStore(): SeqStore {
  const map = new Map<string, number>();
  return {
    get: (channel) => map.get(channel),
    set: (channel, seq) => void map.set(channel, seq),
    clear: () => map.clear(),
  };
}

function safeLocalStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}
