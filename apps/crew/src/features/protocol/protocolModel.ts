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
 * The organisation flags (§6 showAiProtocolFeedback, aiProtocolHideSummary) are hospital features: the
 * case's destination decides when there is one. Without one (the standalone page, a case not yet
 * routed) the crew gets the fuller assistant: feedback when any of the team's hospitals asks for it,
 * the summary unless every one of them hides it.
 */
export function protocolFlags(team: Pick<Team, 'hospitals'> | null, destinationId: string | null) {
  const hospitals = team?.hospitals ?? [];
  const has = (flag: string) => (hospital: Hospital) =>
    hospital.supportedFeatures.some((feature) => feature.name === flag && feature.enabled);
  const destination = destinationId ? hospitals.find((hospital) => hospital.id === destinationId) : undefined;
  if (destination) {
    return {
      showFeedback: has(FEATURE.showAiProtocolFeedback)(destination),
      hideSummary: has(FEATURE.aiProtocolHideSummary)(destination),
    };
  }
  return {
    showFeedback: hospitals.some(has(FEATURE.showAiProtocolFeedback)),
    hideSummary: hospitals.length > 0 && hospitals.every(has(FEATURE.aiProtocolHideSummary)),
  };
}

/** The key of the case context: when it changes, the conversation starts over (§4). */
export function caseContextKey(caseData: { id: string; complaint: string | null; tags: { id: string }[] } | null) {
  return caseData ? `${caseData.id}|${caseData.complaint ?? ''}|${caseData.tags.map((t) => t.id).join(',')}` : '';
}

/** Characters revealed per frame of the streaming reveal (§9 "character by character"). */
export const REVEAL_PER_FRAME = 3;
