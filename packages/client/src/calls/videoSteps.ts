/**
 * How a live consult's outgoing video steps down on a slow link and back up when it recovers (issue 12):
 * audio is never touched; video gives way first — a lower bitrate, then a lower resolution
 * (`scaleResolutionDownBy`), then none at all (the encoding paused) rather than breaking up the voice.
 *
 * Each step is chosen from what the other side reports of our video (RTCP: loss), the round trip and
 * the browser's estimate of the path (`availableOutgoingBitrate`). Down at once on a bad sample; up
 * only after UP_AFTER good samples in a row, so a flapping link does not oscillate.
 */

/** 0 full, 1 reduced, 2 low, 3 paused (audio only). */
export type VideoStep = 0 | 1 | 2 | 3;

/** The encoding of each step: at most this share of the bitrate budget, at this resolution divisor. */
export const VIDEO_STEPS: readonly { bitrateShare: number; scaleDown: number; active: boolean }[] = [
  { bitrateShare: 1, scaleDown: 1, active: true },
  { bitrateShare: 0.4, scaleDown: 2, active: true },
  { bitrateShare: 0.15, scaleDown: 4, active: true },
  { bitrateShare: 0, scaleDown: 4, active: false },
];

/** What one peer may take of the sender's uplink: ~1.2 Mbit/s shared by the others in the room. */
export function videoBudget(remotePeers: number): number {
  return Math.max(300_000, Math.round(1_200_000 / Math.max(1, remotePeers)));
}

export interface VideoSample {
  rttMs: number | null;
  /** The receiver's report of our video's loss (%). */
  videoLossPercent: number | null;
  availableOutgoingBitrate: number | null;
}

/** Good samples in a row before stepping up. */
export const UP_AFTER = 3;

export function isBadSample(sample: VideoSample, step: VideoStep, budget: number): boolean {
  if ((sample.videoLossPercent ?? 0) >= 8) return true;
  if ((sample.rttMs ?? 0) >= 600) return true;
  const needed = budget * VIDEO_STEPS[step]!.bitrateShare;
  return sample.availableOutgoingBitrate !== null && step < 3 && sample.availableOutgoingBitrate < needed * 0.8;
}

function isGoodSample(sample: VideoSample, step: VideoStep, budget: number): boolean {
  if (step === 0) return false;
  if ((sample.videoLossPercent ?? 0) >= 2 || (sample.rttMs ?? 0) >= 300) return false;
  const above = VIDEO_STEPS[step - 1]!;
  // The path must carry the step above with room to spare (no estimate: trust loss and RTT).
  return (
    sample.availableOutgoingBitrate === null || sample.availableOutgoingBitrate >= budget * above.bitrateShare * 1.2
  );
}

/** The next step and the run of good samples after this sample. */
export function nextVideoStep(
  step: VideoStep,
  goodRun: number,
  sample: VideoSample,
  budget: number,
): { step: VideoStep; goodRun: number } {
  if (isBadSample(sample, step, budget)) return { step: Math.min(3, step + 1) as VideoStep, goodRun: 0 };
  if (!isGoodSample(sample, step, budget)) return { step, goodRun: 0 };
  if (goodRun + 1 >= UP_AFTER) return { step: (step - 1) as VideoStep, goodRun: 0 };
  return { step, goodRun: goodRun + 1 };
}

/** Puts a step on the video sender's encoding (one encoding: no simulcast in a mesh). */
export async function applyVideoStep(sender: RTCRtpSender, step: VideoStep, budget: number): Promise<void> {
  const parameters = sender.getParameters();
  const encoding = parameters.encodings?.[0];
  if (!encoding) return;
  const target = VIDEO_STEPS[step]!;
  encoding.active = target.active;
  encoding.scaleResolutionDownBy = target.scaleDown;
  if (target.active) encoding.maxBitrate = Math.max(60_000, Math.round(budget * target.bitrateShare));
  await sender.setParameters(parameters);
}
