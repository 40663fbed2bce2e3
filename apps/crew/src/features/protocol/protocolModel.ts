/**
 * The assistant's conversation (spec §3 "Protocol exchange", §4 Protocol): one exchange per question,
 * with its streamed summary, its details once fetched, its links and its feedback. Pure functions, so
 * the rules are tested without a screen.
 */
import { FEATURE, type Hospital, type PageLink, type Team } from '@inbound/contract';

export interface ProtocolExchange {
  question: string;
  questionDatetime: string;
  questionUuid: string;
  /** The streamed text so far; the whole summary once answered. */
  summarizedResult: string;
  detailedResult: string | null;
  pageLinks: PageLink[];
  answerDatetime: string | null;
  streaming: boolean;
  detailedLoading: boolean;
  /** 1 positive, 2 negative (§3); null until given. */
  feedbackType: 1 | 2 | null;
  feedbackText: string;
  error: string | null;
}

export function newExchange(question: string, questionUuid: string, at: Date): ProtocolExchange {
  return {
    question,
    questionDatetime: at.toISOString(),
    questionUuid,
    summarizedResult: '',
    detailedResult: null,
    pageLinks: [],
    answerDatetime: null,
    streaming: true,
    detailedLoading: false,
    feedbackType: null,
    feedbackText: '',
    error: null,
  };
}

/** §5: a question is required outside a case; inside one an empty question asks about the case. */
export function canAsk(question: string, inCase: boolean, pending: boolean): boolean {
  return !pending && (inCase || question.trim() !== '');
}

/**
 * The organisation flags (§6 showAiProtocolFeedback, aiProtocolHideSummary) are hospital features:
 * the case's destination decides when there is one, otherwise any hospital of the team.
 */
export function organisationFlag(team: Pick<Team, 'hospitals'> | null, destinationId: string | null, flag: string) {
  const has = (hospital: Hospital) => hospital.supportedFeatures.some((f) => f.name === flag && f.enabled);
  const hospitals = team?.hospitals ?? [];
  const destination = destinationId ? hospitals.find((hospital) => hospital.id === destinationId) : undefined;
  return destination ? has(destination) : hospitals.some(has);
}

export const protocolFlags = (team: Pick<Team, 'hospitals'> | null, destinationId: string | null) => ({
  showFeedback: organisationFlag(team, destinationId, FEATURE.showAiProtocolFeedback),
  hideSummary: organisationFlag(team, destinationId, FEATURE.aiProtocolHideSummary),
});

/** The key of the case context: when it changes, the conversation starts over (§4). */
export function caseContextKey(caseData: { id: string; complaint: string | null; tags: { id: string }[] } | null) {
  return caseData ? `${caseData.id}|${caseData.complaint ?? ''}|${caseData.tags.map((t) => t.id).join(',')}` : '';
}

/** Characters revealed per frame of the streaming reveal (§9 "character by character"). */
export const REVEAL_PER_FRAME = 3;
