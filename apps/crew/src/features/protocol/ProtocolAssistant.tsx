import { useEffect, useRef, useState } from 'react';
import {
  messages,
  PROTOCOL_QUESTION_MAX_LENGTH,
  PROTOCOL_SPEECH,
  TEXT_MAX_LENGTH,
  type Complaint,
  type QuestionBody,
} from '@inbound/contract';
import { useSession } from '../../lib/session';
import { textColorFor } from '../complaints/tagRules';
import { currentEmsLevel } from './emsLevel';
import { askStreaming, fetchDetailed, plainAnswer, sendProtocolFeedback } from './protocolApi';
import { canAsk, newExchange, protocolFlags, REVEAL_PER_FRAME, type ProtocolExchange } from './protocolModel';
import styles from './Protocol.module.css';

export interface CaseContextView {
  caseId: string;
  destinationId: string | null;
  complaint: Pick<Complaint, 'name' | 'color'> | null;
  tags: string[];
}

const DISCLAIMER =
  "Answers are drawn only from your agency's protocol documents and may be incomplete. Check the cited page; follow your protocols and medical control.";

/**
 * The AI protocol assistant (spec §2, §4, §9): question and answer bubbles, the answer revealed
 * character by character as it streams, Show/Hide details (fetched on first Show), reference links to
 * the cited pages, thumbs up/down (text required on down), read aloud, New Conversation. Inside a case
 * (`context`) the header shows the complaint, an empty question asks about the case, and Q:/A:/Feedback:
 * go to the case chat through `postToChat`.
 */
export function ProtocolAssistant({
  context,
  postToChat,
}: {
  context: CaseContextView | null;
  postToChat?: (text: string) => void;
}) {
  const team = useSession((state) => state.selectedTeam);
  const userId = useSession((state) => state.user?.id ?? null);
  const stored = useSession((state) => state.emtLevel);
  const [exchanges, setExchanges] = useState<ProtocolExchange[]>([]);
  const [question, setQuestion] = useState('');
  const [chatSessionID, setChatSessionID] = useState<string | null>(null);
  const [showTags, setShowTags] = useState(false);
  const flags = protocolFlags(team, context?.destinationId ?? null);
  const pending = exchanges.some((exchange) => exchange.streaming);
  const end = useRef<HTMLDivElement>(null);

  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [exchanges.length]);

  const update = (uuid: string, change: Partial<ProtocolExchange>) =>
    setExchanges((all) =>
      all.map((exchange) => (exchange.questionUuid === uuid ? { ...exchange, ...change } : exchange)),
    );

  const bodyFor = (exchange: Pick<ProtocolExchange, 'question' | 'questionUuid'>): QuestionBody => ({
    question: exchange.question,
    responseType: flags.hideSummary ? 'detailed' : 'summary',
    questionUuid: exchange.questionUuid,
    organization: { id: team?.id ?? '', type: 'emsAgency' },
    emtLevel: currentEmsLevel({ team, userId, stored }),
    chatSessionID,
    twiageCaseId: context?.caseId ?? null,
  });

  const ask = async () => {
    if (!team || !canAsk(question, context !== null, pending)) return;
    const text = question.trim();
    const exchange = newExchange(text, crypto.randomUUID(), new Date());
    setExchanges((all) => [...all, exchange]);
    setQuestion('');
    postToChat?.(`Q: ${text || 'About this case'}`);
    try {
      const result = await askStreaming(bodyFor(exchange), (partial) =>
        update(exchange.questionUuid, { summarizedResult: partial }),
      );
      setChatSessionID(result.chatSessionID);
      const answer = flags.hideSummary ? result.detailedResult : result.summarizedResult;
      update(exchange.questionUuid, {
        summarizedResult: answer,
        detailedResult: flags.hideSummary ? result.detailedResult : null,
        pageLinks: result.pageLinks,
        answerDatetime: new Date().toISOString(),
        streaming: false,
      });
      postToChat?.(`A: ${plainAnswer(answer)}`.slice(0, TEXT_MAX_LENGTH));
    } catch {
      update(exchange.questionUuid, { streaming: false, error: messages.protocolRequestError });
    }
  };

  const showDetails = async (exchange: ProtocolExchange) => {
    if (exchange.detailedResult !== null || exchange.detailedLoading) return;
    update(exchange.questionUuid, { detailedLoading: true });
    try {
      const result = await fetchDetailed(bodyFor(exchange));
      update(exchange.questionUuid, { detailedResult: result.detailedResult, detailedLoading: false });
    } catch {
      update(exchange.questionUuid, { detailedLoading: false, error: messages.protocolDetailError });
    }
  };

  const giveFeedback = async (exchange: ProtocolExchange, positive: boolean, text: string) => {
    await sendProtocolFeedback(exchange.questionUuid, positive, positive ? null : text);
    update(exchange.questionUuid, { feedbackType: positive ? 1 : 2, feedbackText: text });
    postToChat?.(`Feedback: ${positive ? 'Helpful' : `Not helpful: ${text}`}`);
  };

  return (
    <div className={styles.assistant}>
      {context?.complaint && (
        <div
          className={styles.context}
          style={{ backgroundColor: context.complaint.color, color: textColorFor(context.complaint.color) }}
        >
          {context.complaint.name}
          {context.tags.length > 0 && (
            <>
              {' '}
              <button
                type="button"
                className={styles.linkButton}
                onClick={() => setShowTags((shown) => !shown)}
                aria-expanded={showTags}
              >
                {showTags ? 'Hide tags' : `${context.tags.length} ${context.tags.length === 1 ? 'tag' : 'tags'}`}
              </button>
              {showTags && (
                <ul className={styles.contextTags}>
                  {context.tags.map((tag) => (
                    <li key={tag}>{tag}</li>
                  ))}
                </ul>
              )}
            </>
          )}
        </div>
      )}
      {exchanges.length > 0 && (
        <div className={styles.conversation} role="log" aria-label="Conversation">
          {exchanges.map((exchange) => (
            <ExchangeView
              key={exchange.questionUuid}
              exchange={exchange}
              hideSummary={flags.hideSummary}
              showFeedback={flags.showFeedback}
              onShowDetails={() => void showDetails(exchange)}
              onFeedback={(positive, text) => giveFeedback(exchange, positive, text)}
            />
          ))}
          <div ref={end} />
        </div>
      )}
      {exchanges.length > 0 && !pending && (
        <button
          type="button"
          className="button button--secondary"
          onClick={() => {
            setExchanges([]);
            setChatSessionID(null);
          }}
        >
          New Conversation
        </button>
      )}
      <form
        className={styles.ask}
        onSubmit={(event) => {
          event.preventDefault();
          void ask();
        }}
      >
        <textarea
          aria-label="Question"
          placeholder={
            context ? 'Ask about this case, or leave empty to ask about the case' : 'Ask a protocol question'
          }
          value={question}
          maxLength={PROTOCOL_QUESTION_MAX_LENGTH}
          onChange={(event) => setQuestion(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && !event.shiftKey) {
              event.preventDefault();
              void ask();
            }
          }}
        />
        <button
          type="submit"
          className="button button--primary"
          disabled={!canAsk(question, context !== null, pending)}
        >
          {messages.askQuestion}
        </button>
      </form>
      <p className={styles.disclaimer}>{DISCLAIMER}</p>
    </div>
  );
}

function ExchangeView({
  exchange,
  hideSummary,
  showFeedback,
  onShowDetails,
  onFeedback,
}: {
  exchange: ProtocolExchange;
  hideSummary: boolean;
  showFeedback: boolean;
  onShowDetails: () => void;
  onFeedback: (positive: boolean, text: string) => Promise<void>;
}) {
  const [detailsShown, setDetailsShown] = useState(false);
  const [writingDown, setWritingDown] = useState(false);
  const [downText, setDownText] = useState('');
  const [sendError, setSendError] = useState<string | null>(null);
  const revealed = useReveal(exchange.summarizedResult);
  const speech = typeof window !== 'undefined' && 'speechSynthesis' in window ? window.speechSynthesis : null;
  const shownText = detailsShown && exchange.detailedResult !== null ? exchange.detailedResult : revealed;

  const speak = () => {
    if (!speech) return;
    speech.cancel();
    const utterance = new SpeechSynthesisUtterance(plainAnswer(shownText));
    utterance.rate = PROTOCOL_SPEECH.rate;
    utterance.lang = PROTOCOL_SPEECH.lang;
    speech.speak(utterance);
  };
  const send = (positive: boolean, text: string) => {
    setSendError(null);
    onFeedback(positive, text).then(
      () => setWritingDown(false),
      () => setSendError(messages.protocolRequestError),
    );
  };

  return (
    <>
      <div className={styles.question}>{exchange.question || 'About this case'}</div>
      <div className={styles.answer} aria-busy={exchange.streaming}>
        {exchange.error && !exchange.summarizedResult ? (
          <p className={styles.error}>{exchange.error}</p>
        ) : (
          <pre className={styles.answerText}>{shownText || '…'}</pre>
        )}
        {!exchange.streaming &&
          exchange.summarizedResult !== '' &&
          revealed.length === exchange.summarizedResult.length && (
            <>
              {exchange.pageLinks.length > 0 && (
                <ol className={styles.links} aria-label="References">
                  {exchange.pageLinks.map((link) => (
                    <li key={link.ref} value={link.ref}>
                      <a href={link.url} target="_blank" rel="noopener noreferrer">
                        {link.documentTitle}
                        {link.protocolNumber ? ` (${link.protocolNumber})` : ''}, {link.printedPage}
                      </a>
                    </li>
                  ))}
                </ol>
              )}
              <div className={styles.tools}>
                {!hideSummary && (
                  <button
                    type="button"
                    className={styles.tool}
                    aria-expanded={detailsShown}
                    onClick={() => {
                      if (!detailsShown) onShowDetails();
                      setDetailsShown((shown) => !shown);
                    }}
                  >
                    {detailsShown ? 'Hide details' : 'Show details'}
                  </button>
                )}
                {speech && (
                  <button type="button" className={styles.tool} onClick={speak} aria-label="Read aloud">
                    Read aloud
                  </button>
                )}
                {showFeedback && exchange.feedbackType === null && (
                  <>
                    <button type="button" className={styles.tool} aria-label="Thumbs up" onClick={() => send(true, '')}>
                      Helpful
                    </button>
                    <button
                      type="button"
                      className={`${styles.tool} ${writingDown ? styles.toolActive : ''}`}
                      aria-label="Thumbs down"
                      onClick={() => setWritingDown(true)}
                    >
                      Not helpful
                    </button>
                  </>
                )}
              </div>
              {detailsShown && exchange.detailedLoading && <p className={styles.disclaimer}>Loading details…</p>}
              {exchange.error && <p className={styles.error}>{exchange.error}</p>}
              {writingDown && exchange.feedbackType === null && (
                <form
                  className={styles.feedbackBox}
                  onSubmit={(event) => {
                    event.preventDefault();
                    if (downText.trim() !== '') send(false, downText.trim());
                  }}
                >
                  <textarea
                    aria-label="What was wrong with this answer?"
                    placeholder="What was wrong with this answer?"
                    required
                    value={downText}
                    onChange={(event) => setDownText(event.target.value)}
                  />
                  <button type="submit" className="button button--primary" disabled={downText.trim() === ''}>
                    Send feedback
                  </button>
                </form>
              )}
              {sendError && <p className={styles.error}>{sendError}</p>}
              {exchange.feedbackType !== null && <p className={styles.thanks}>Thank you for your feedback.</p>}
            </>
          )}
      </div>
    </>
  );
}

/** §9: the streamed text appears character by character, catching up with what has arrived. */
function useReveal(text: string): string {
  const [count, setCount] = useState(0);
  useEffect(() => {
    if (count >= text.length) return;
    // Character by character, catching up faster when far behind (a long answer arriving at once).
    const step = Math.max(REVEAL_PER_FRAME, Math.ceil((text.length - count) / 30));
    const frame = requestAnimationFrame(() => setCount((shown) => Math.min(text.length, shown + step)));
    return () => cancelAnimationFrame(frame);
  }, [count, text]);
  return text.slice(0, count);
}
