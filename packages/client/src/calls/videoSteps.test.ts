import { describe, expect, it } from 'vitest';
import { nextVideoStep, UP_AFTER, videoBudget, type VideoSample, type VideoStep } from './videoSteps';

const good: VideoSample = { rttMs: 40, videoLossPercent: 0, availableOutgoingBitrate: 2_000_000 };
const budget = videoBudget(2);

describe('video steps on a slow link', () => {
  it('shares the uplink among the others in the room, never below 300 kbit/s each', () => {
    expect(videoBudget(1)).toBe(1_200_000);
    expect(videoBudget(3)).toBe(400_000);
    expect(videoBudget(10)).toBe(300_000);
  });

  it('steps down at once on loss, a long round trip or a path too narrow, to paused video at most', () => {
    expect(nextVideoStep(0, 2, { ...good, videoLossPercent: 12 }, budget)).toEqual({ step: 1, goodRun: 0 });
    expect(nextVideoStep(1, 0, { ...good, rttMs: 900 }, budget)).toEqual({ step: 2, goodRun: 0 });
    expect(nextVideoStep(2, 0, { ...good, availableOutgoingBitrate: 40_000 }, budget).step).toBe(3);
    expect(nextVideoStep(3, 0, { ...good, videoLossPercent: 30 }, budget).step).toBe(3);
  });

  it('steps back up only after several good samples in a row; a middling one resets the run', () => {
    let state: { step: VideoStep; goodRun: number } = { step: 2, goodRun: 0 };
    for (let i = 1; i < UP_AFTER; i += 1) {
      state = nextVideoStep(state.step, state.goodRun, good, budget);
      expect(state).toEqual({ step: 2, goodRun: i });
    }
    expect(nextVideoStep(state.step, state.goodRun, { ...good, videoLossPercent: 4 }, budget)).toEqual({
      step: 2,
      goodRun: 0,
    });
    state = nextVideoStep(state.step, state.goodRun, good, budget);
    expect(state).toEqual({ step: 1, goodRun: 0 });
    // At full video a good sample changes nothing.
    expect(nextVideoStep(0, 0, good, budget)).toEqual({ step: 0, goodRun: 0 });
  });

  it('does not step up when the path could not carry the step above', () => {
    const narrow = { ...good, availableOutgoingBitrate: budget * 0.3 };
    expect(nextVideoStep(2, UP_AFTER - 1, narrow, budget)).toEqual({ step: 2, goodRun: 0 });
  });
});
