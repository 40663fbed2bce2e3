import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRefreshCoalescer } from './refreshCoalescer';

/** A read that stays open until the test ends it: what the board's GET looks like in flight. */
function controlledReads() {
  const ends: { resolve: () => void; reject: (error: Error) => void }[] = [];
  const read = vi.fn(
    () =>
      new Promise<void>((resolve, reject) => {
        ends.push({ resolve, reject });
      }),
  );
  return { read, ends };
}

const WINDOW = 150;

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('board refresh coalescing', () => {
  it('answers a burst of notices within one window with ONE read', async () => {
    const { read, ends } = controlledReads();
    const coalescer = createRefreshCoalescer(read, WINDOW);
    for (let i = 0; i < 50; i++) coalescer.notify();
    expect(read).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(WINDOW - 1);
    expect(read).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(read).toHaveBeenCalledTimes(1);
    ends[0]!.resolve();
    await vi.advanceTimersByTimeAsync(10 * WINDOW);
    expect(read).toHaveBeenCalledTimes(1);
  });

  it('reads again after a read during which a notice arrived (it may not have seen that change)', async () => {
    const { read, ends } = controlledReads();
    const coalescer = createRefreshCoalescer(read, WINDOW);
    coalescer.notify();
    await vi.advanceTimersByTimeAsync(WINDOW);
    expect(read).toHaveBeenCalledTimes(1);
    // Notices while the read is in flight: never a second read at the same time, and none lost.
    coalescer.notify();
    coalescer.notify();
    await vi.advanceTimersByTimeAsync(5 * WINDOW);
    expect(read).toHaveBeenCalledTimes(1);
    ends[0]!.resolve();
    await vi.advanceTimersByTimeAsync(WINDOW);
    expect(read).toHaveBeenCalledTimes(2);
    ends[1]!.resolve();
    await vi.advanceTimersByTimeAsync(10 * WINDOW);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('reads again after a FAILED read during which a notice arrived', async () => {
    const { read, ends } = controlledReads();
    const coalescer = createRefreshCoalescer(read, WINDOW);
    coalescer.notify();
    await vi.advanceTimersByTimeAsync(WINDOW);
    coalescer.notify();
    ends[0]!.reject(new Error('offline'));
    await vi.advanceTimersByTimeAsync(WINDOW);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('a notice after a completed read starts a new window (nothing is left pending)', async () => {
    const { read, ends } = controlledReads();
    const coalescer = createRefreshCoalescer(read, WINDOW);
    coalescer.notify();
    await vi.advanceTimersByTimeAsync(WINDOW);
    ends[0]!.resolve();
    await vi.advanceTimersByTimeAsync(0);
    coalescer.notify();
    await vi.advanceTimersByTimeAsync(WINDOW);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('reads once per window at most under a steady stream, and the last notice is always followed by a read', async () => {
    const { read, ends } = controlledReads();
    const coalescer = createRefreshCoalescer(read, WINDOW);
    // 50 notices 30 ms apart (1.5 s); each read takes 40 ms.
    let readsEnded = 0;
    for (let i = 0; i < 50; i++) {
      coalescer.notify();
      await vi.advanceTimersByTimeAsync(30);
      while (readsEnded < ends.length) {
        const end = ends[readsEnded++]!;
        setTimeout(end.resolve, 10);
      }
    }
    const lastNoticeAt = Date.now() - 30;
    const readsBefore = read.mock.calls.length;
    expect(readsBefore).toBeLessThanOrEqual(Math.ceil((50 * 30) / WINDOW));
    expect(readsBefore).toBeGreaterThan(1);
    // Let everything settle: a read must START after the last notice.
    const startTimes: number[] = [];
    read.mockImplementation(() => {
      startTimes.push(Date.now());
      return Promise.resolve();
    });
    while (readsEnded < ends.length) ends[readsEnded++]!.resolve();
    await vi.advanceTimersByTimeAsync(10 * WINDOW);
    expect(Math.max(...startTimes)).toBeGreaterThanOrEqual(lastNoticeAt);
  });

  it('does nothing once disposed', async () => {
    const { read } = controlledReads();
    const coalescer = createRefreshCoalescer(read, WINDOW);
    coalescer.notify();
    coalescer.dispose();
    coalescer.notify();
    await vi.advanceTimersByTimeAsync(10 * WINDOW);
    expect(read).not.toHaveBeenCalled();
  });
});
