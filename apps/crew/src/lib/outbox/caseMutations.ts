/**
 * One builder per case call of spec §7 (issue 3, "Server calls"): method and path come from the contract's
 * route table (`routeRequest`, the API client's own), and each checks its body against the contract
 * *before* it is queued — a change the server would refuse with 400 is a bug to see at the tap,
 * not a rejected entry an hour later — and returns what `outbox.enqueue()` takes.
 *
 *   await outbox.enqueue(caseMutations.patchCase(caseId, { gender: 'F' }));
 */
import {
  CaseFeedbackBody,
  CreateCaseBody,
  DynamicFormBody,
  LocationUpdateBody,
  MEDIA_CHAT_LENGTH_FIELD,
  MediaChatLength,
  mediaMessages,
  MonitorIntegrationBody,
  PatchCaseBody,
  PostChatMessageBody,
  TagValuesBody,
  type CaseEventType,
} from '@inbound/contract';
import { routeRequest } from '@inbound/client';
import type { MutationInput } from './types';

/** Media types that are uploads, and the file name the spec gives each (§4: {eventType}.jpeg, .mp4 or .mp3). */
export type MediaEventType = Extract<CaseEventType, 'photo' | 'id' | 'ekg' | 'video' | 'voicememo'>;
const MEDIA_EXTENSION: Record<MediaEventType, string> = {
  photo: 'jpeg',
  id: 'jpeg',
  ekg: 'jpeg',
  video: 'mp4',
  voicememo: 'mp3',
};

export const caseMutations = {
  /**
   * POST /v4/twiageCases?placeholderId=… — the first mutation of a case started on this device. Its
   * answer gives the real id, and the outbox rewrites the rest of the case to it.
   */
  createCase(placeholderId: string, body: CreateCaseBody): MutationInput {
    return {
      caseId: placeholderId,
      kind: 'createCase',
      ...routeRequest('createCase', { query: { placeholderId } }),
      body: CreateCaseBody.parse(body),
    };
  },

  /**
   * POST /v4/twiageCases/{id}/handoff-watch — queued right after the close, so it is answered while the
   * case is still on the device; its answer (an opaque token and the hospital's name) is all Start keeps
   * to follow the hand-over once the case is wiped (decision 0038).
   */
  handoffWatch(caseId: string): MutationInput {
    return { caseId, kind: 'handoffWatch', ...routeRequest('issueHandoffWatch', { params: { id: caseId } }) };
  },

  /** PATCH /v4/twiageCases/{id} with exactly one of complaint, destinationHospital, gender, age + agePeriod, arrivedAt. */
  patchCase(caseId: string, body: PatchCaseBody): MutationInput {
    return {
      caseId,
      kind: 'patchCase',
      ...routeRequest('patchCase', { params: { id: caseId } }),
      body: PatchCaseBody.parse(body),
    };
  },

  addTag(caseId: string, tagId: string): MutationInput {
    return { caseId, kind: 'addTag', ...routeRequest('addCaseTag', { params: { id: caseId }, query: { tagId } }) };
  },

  removeTag(caseId: string, tagId: string): MutationInput {
    return {
      caseId,
      kind: 'removeTag',
      ...routeRequest('removeCaseTag', { params: { id: caseId }, query: { tagId } }),
    };
  },

  tagValues(caseId: string, tagId: string, body: TagValuesBody): MutationInput {
    return {
      caseId,
      kind: 'tagValues',
      ...routeRequest('caseTagValues', { params: { id: caseId, tagId } }),
      body: TagValuesBody.parse(body),
    };
  },

  location(caseId: string, body: LocationUpdateBody): MutationInput {
    return {
      caseId,
      kind: 'location',
      ...routeRequest('caseLocation', { params: { id: caseId } }),
      body: LocationUpdateBody.parse(body),
    };
  },

  dynamicForm(caseId: string, formId: string, body: DynamicFormBody): MutationInput {
    return {
      caseId,
      kind: 'dynamicForm',
      ...routeRequest('caseDynamicForm', { params: { id: caseId, formId } }),
      body: DynamicFormBody.parse(body),
    };
  },

  /** PATCH /monitor-integration/{type}/{caseId} — one of the paths without the /v4 prefix. */
  monitor(caseId: string, type: string, body: { monitorId: string; patientId: string }): MutationInput {
    return {
      caseId,
      kind: 'monitor',
      ...routeRequest('monitorIntegration', { params: { type, caseId } }),
      body: MonitorIntegrationBody.parse(body),
    };
  },

  caseFeedback(caseId: string, body: CaseFeedbackBody): MutationInput {
    return {
      caseId,
      kind: 'caseFeedback',
      ...routeRequest('caseFeedback', { params: { id: caseId } }),
      body: CaseFeedbackBody.parse(body),
    };
  },

  /**
   * POST /notification/twiage-cases/{id}/chat-messages (§7). Its Idempotency-Key (the outbox's) makes a
   * message sent twice — a retry after a lost answer — appear once.
   */
  chat(caseId: string, body: PostChatMessageBody): MutationInput {
    return {
      caseId,
      kind: 'chat',
      ...routeRequest('postChatMessage', { params: { id: caseId } }),
      body: PostChatMessageBody.parse(body),
    };
  },

  /**
   * POST /media/twiage-cases/{id}/uploads, multipart `type` and `data` (file `{type}.jpeg|mp4|mp3`); above
   * `MEDIA_RESUMABLE_ABOVE_BYTES` the transport sends it over tus with the same fields as metadata.
   * `chatLength` (voice memos only, seconds): the server also posts it in the chat as a VOICE_MEMO.
   */
  media(caseId: string, type: MediaEventType, blob: Blob, options: { chatLength?: number } = {}): MutationInput {
    const fields: Record<string, string> = { type };
    if (options.chatLength !== undefined) {
      if (type !== 'voicememo') throw new Error(mediaMessages.chatLengthNotVoiceMemo);
      fields[MEDIA_CHAT_LENGTH_FIELD] = String(MediaChatLength.parse(options.chatLength));
    }
    return {
      caseId,
      kind: 'media',
      ...routeRequest('uploadMedia', { params: { id: caseId } }),
      media: { blob, fileName: `${type}.${MEDIA_EXTENSION[type]}`, fileField: 'data', fields },
    };
  },
};
