import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { ChatMessage } from '@inbound/contract';
import { VoiceMemoPlayer } from '../media/VoiceMemoPlayer';
import { formatMessageTime } from '../messages/formatMessageTime';
import { buildConversation, isSendable, OWN_STATE_TEXT, type ConversationItem, type OwnState } from './chatModel';
import { discardChatMessage, retryChatMessage, sendChatMessage, useOutgoingChat } from './outgoing';
import { useVoiceMemoRecorder } from './voiceMemoRecorder';
import './chat.css';

export interface ChatTabProps {
  caseId: string;
  messages: readonly ChatMessage[];
  me: { id: string; displayName: string; organization: string };
}

/**
 * The CHAT tab (spec §2): the conversation and a text input ('Write a message'). Enter or the send icon
 * sends; whitespace-only is never sent (§5). With no text, the mic icon opens the voice-memo recorder —
 * shown only when the media feature has registered one. Each of the crew's messages shows its state.
 */
export function ChatTab({ caseId, messages, me }: ChatTabProps) {
  const outgoing = useOutgoingChat((state) => state.entries);
  const [text, setText] = useState('');
  const openRecorder = useVoiceMemoRecorder();
  const listEnd = useRef<HTMLLIElement>(null);
  const items = buildConversation(
    messages,
    outgoing.filter((entry) => entry.caseId === caseId),
    me,
  );

  useEffect(() => {
    listEnd.current?.scrollIntoView?.({ block: 'end' });
  }, [items.length]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!isSendable(text)) return;
    const sending = text;
    setText('');
    void sendChatMessage(sending).then((queued) => {
      if (!queued) setText((current) => current || sending);
    });
  };

  const empty = text === '';
  return (
    <div className="chat">
      {/* Always in the page: a live region announces what is added to it, not what it arrives with. */}
      {/* The log is the scrolling region (focusable, so a keyboard can scroll it); the list inside keeps
          its list role, which a log role on the <ol> itself would replace (axe: aria-allowed-role). */}
      <div className="chat__log" role="log" aria-label="Chat messages" tabIndex={0}>
        <ol className="chat__list">
          {items.map((item) => (
            <ChatBubble key={item.id} item={item} caseId={caseId} />
          ))}
          <li ref={listEnd} aria-hidden="true" className="chat__end" />
        </ol>
      </div>
      {items.length === 0 && <p className="empty-state">No messages yet.</p>}
      <form className="chat__compose" onSubmit={submit}>
        <input
          className="chat__input"
          type="text"
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder="Write a message"
          aria-label="Write a message"
          maxLength={4_000}
          enterKeyHint="send"
        />
        {empty && openRecorder ? (
          <button type="button" className="chat__icon-button" aria-label="Record a voice memo" onClick={openRecorder}>
            <MicIcon />
          </button>
        ) : (
          <button type="submit" className="chat__icon-button" aria-label="Send" disabled={!isSendable(text)}>
            <SendIcon />
          </button>
        )}
      </form>
    </div>
  );
}

function ChatBubble({ item, caseId }: { item: ConversationItem; caseId: string }) {
  const at = new Date(item.at);
  return (
    <li className={item.mine ? 'chat__message chat__message--mine' : 'chat__message'}>
      {!item.mine && (
        <p className="chat__sender">
          {item.senderName}
          {item.senderOrganization && <span className="chat__org"> · {item.senderOrganization}</span>}
        </p>
      )}
      {item.type === 'VOICE_MEMO' ? (
        <div className="chat__content">
          <VoiceMemoPlayer caseId={caseId} mediaId={item.mediaId} length={item.length} />
        </div>
      ) : (
        <p className="chat__content">{item.content}</p>
      )}
      <p className="chat__meta">
        <time dateTime={item.at}>{formatMessageTime(at, new Date())}</time>
        {item.state && <StateMark state={item.state} />}
      </p>
      {item.error !== null && item.outboxKey !== null && (
        <div className="chat__failed">
          <p className="chat__error" role="alert">
            {item.error}
          </p>
          <button type="button" className="link-button" onClick={() => void retryChatMessage(item.outboxKey ?? '')}>
            Retry
          </button>
          <button type="button" className="link-button" onClick={() => void discardChatMessage(item.outboxKey ?? '')}>
            Discard
          </button>
        </div>
      )}
    </li>
  );
}

/** Icon + text: the text is what a screen reader says and what a glance in sunlight can still read. */
function StateMark({ state }: { state: OwnState }) {
  return (
    <span className={`chat__state chat__state--${state}`} data-state={state}>
      <StateIcon state={state} />
      <span className="chat__state-text">{OWN_STATE_TEXT[state]}</span>
    </span>
  );
}

function StateIcon({ state }: { state: OwnState }) {
  const common = { width: 16, height: 16, viewBox: '0 0 24 24', 'aria-hidden': true, focusable: false } as const;
  const stroke = {
    fill: 'none',
    stroke: 'currentColor',
    strokeWidth: 2.4,
    strokeLinecap: 'round',
    strokeLinejoin: 'round',
  } as const;
  switch (state) {
    case 'waiting':
      return (
        <svg {...common}>
          <circle cx="12" cy="12" r="9" {...stroke} />
          <path d="M12 7v5l3 2" {...stroke} />
        </svg>
      );
    case 'failed':
      return (
        <svg {...common}>
          <path d="M12 3 2 21h20z" {...stroke} />
          <path d="M12 10v5M12 18v.5" {...stroke} />
        </svg>
      );
    case 'sent':
      return (
        <svg {...common}>
          <path d="m5 13 4 4 10-10" {...stroke} />
        </svg>
      );
    case 'delivered':
    case 'read':
      return (
        <svg {...common}>
          <path d="m2 13 4 4 10-10M10 16l1 1 10-10" {...stroke} />
        </svg>
      );
  }
}

function SendIcon() {
  return (
    <svg width="26" height="26" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path fill="currentColor" d="M3 20.5 21.5 12 3 3.5l.01 6.6L16 12 3.01 13.9z" />
    </svg>
  );
}

function MicIcon() {
  return (
    <svg width="26" height="26" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M12 14a3 3 0 0 0 3-3V5a3 3 0 0 0-6 0v6a3 3 0 0 0 3 3zm5-3a5 5 0 0 1-10 0H5a7 7 0 0 0 6 6.92V21h2v-3.08A7 7 0 0 0 19 11z"
      />
    </svg>
  );
}
