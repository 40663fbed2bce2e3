/** General feedback about the app: any signed-in user may send it; it is kept with who and when. */
import { randomUUID } from 'node:crypto';
import { serverMessages, type FeedbackBody } from '@inbound/contract';
import type { Clock } from '../../clock.js';
import type { Principal } from '../auth/principal.js';
import type { FeedbackRepository } from './feedback.repository.js';

export function createFeedbackService({ repo, clock }: { repo: FeedbackRepository; clock: Clock }) {
  return {
    async submit(principal: Principal, body: FeedbackBody): Promise<{ id: string; message: string }> {
      const id = randomUUID();
      await repo.insert({
        id,
        userId: principal.userId,
        message: body.message,
        client: body.clientInfo.client,
        clientVersion: body.clientInfo.clientVersion,
        createdAt: clock.now().toISOString(),
      });
      return { id, message: serverMessages.feedbackReceived };
    },
  };
}

export type FeedbackService = ReturnType<typeof createFeedbackService>;
