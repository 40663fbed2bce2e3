/**
 * The figures the metrics read from other modules: conversion jobs (queue length, durations), channel
 * subscriptions by kind, and push outcomes.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { createJobQueue } from '../media/conversion-queue.js';
import { createChannelStreams } from '../realtime/channel-streams.js';
import { countingPushTransport } from './instrument.js';
import { createMetrics } from './metrics.js';

describe('metric sources', () => {
  it('the conversion queue tells its length and each finished job, not an aborted one', async () => {
    const done: string[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const queue = createJobQueue(
      1,
      async (id) => {
        await gate;
        if (id === 'bad') throw new Error('ffmpeg failed');
      },
      () => undefined,
      (outcome, seconds) => {
        expect(seconds).toBeGreaterThanOrEqual(0);
        done.push(outcome);
      },
    );
    queue.enqueue('good');
    queue.enqueue('bad');
    expect(queue.size()).toEqual({ waiting: 1, running: 1 });
    release();
    await queue.whenIdle();
    expect(done).toEqual(['ok', 'failed']);
    expect(queue.size()).toEqual({ waiting: 0, running: 0 });

    const hanging = createJobQueue(
      1,
      (_id, signal) =>
        new Promise((_r, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')))),
      () => undefined,
      (outcome) => done.push(outcome),
    );
    hanging.enqueue('x');
    await hanging.close();
    expect(done).toEqual(['ok', 'failed']);
  });

  it('channel streams count subscriptions by channel kind', async () => {
    const streams = createChannelStreams({
      head: () => Promise.resolve(0),
      after: () => Promise.resolve([]),
      listen: () => Promise.resolve(),
      unlisten: () => Promise.resolve(),
      onError: (error) => {
        throw error;
      },
    });
    const socket = () => ({ send: () => undefined });
    const a = socket();
    const b = socket();
    await streams.subscribe(a, 'case:c1', undefined);
    await streams.subscribe(b, 'case:c1', undefined);
    await streams.subscribe(a, 'user:u1', undefined);
    expect(streams.subscriptionsByKind()).toEqual({ case: 2, user: 1 });
    streams.close();
  });

  it('push sends are counted by outcome', async () => {
    const metrics = createMetrics({ defaultMetrics: false });
    const answers = [201, 410, 500];
    const transport = countingPushTransport(() => {
      const status = answers.shift();
      return status === undefined ? Promise.reject(new Error('no answer')) : Promise.resolve({ status });
    }, metrics);
    const request = { endpoint: 'https://push.example/x', method: 'POST', headers: {}, body: null };
    for (let i = 0; i < 3; i++) await transport(request);
    await expect(transport(request)).rejects.toThrow('no answer');
    const text = await metrics.scrape();
    for (const outcome of ['sent', 'gone', 'refused', 'error'])
      expect(text).toMatch(new RegExp(`inbound_push_sends_total\\{[^}]*outcome="${outcome}"[^}]*\\} 1`));
  });

  it("keeps nothing of an app's metrics once the app is dropped: the process's own are collected once", async () => {
    // A collection of the heap on demand, in this worker only.
    setFlagsFromString('--expose-gc');
    const collectGarbage = runInNewContext('gc') as () => void;
    /** Builds an app's metrics around an owner, scrapes them once, and lets go of both. */
    async function scrapedOnce(i: number): Promise<WeakRef<object>> {
      const metrics = createMetrics();
      const owner = { pending: i };
      metrics.sources.outboxBacklog = () => Promise.resolve({ pending: owner.pending, oldestSeconds: 0 });
      const text = await metrics.scrape();
      expect(text).toContain('inbound_process_cpu_seconds_total');
      expect(text).toMatch(new RegExp(`inbound_outbox_pending\\{[^}]*\\} ${i}\\n`));
      return new WeakRef(owner);
    }
    const owners = [await scrapedOnce(0), await scrapedOnce(1), await scrapedOnce(2)];
    for (let i = 0; i < 2; i++) {
      await new Promise((resolve) => setImmediate(resolve));
      collectGarbage();
    }
    expect(owners.filter((owner) => owner.deref() !== undefined)).toHaveLength(0);
  });
});
