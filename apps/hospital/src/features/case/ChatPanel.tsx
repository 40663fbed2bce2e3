import {
  useCallback,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type FormEvent,
  type KeyboardEvent,
} from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { CHAT_MESSAGE_MAX_LENGTH, type ChatMessage } from '@inbound/contract';
import { ApiError, type RequestOptions } from '../../lib/api';
import { api } from '../../lib/client';
import { formatClock } from '../board/format';
import { boardKeys } from '../board/queries';
import { formatLength } from './MediaPanel';
import { caseKeys, mergeChatMessage, useCaseChat, useMediaLink } from './queries';

/** One console tab is one device for the chat's `deviceId`. */
const DEVICE_ID = `console-${Math.random().toString(36).slice(2, 12)}`;
/** A message that got no answer at all (network down) is tried again after this long. */
export const CHAT_RETRY_MS = 3_000;

type ChatBody = NonNullable<RequestOptions<'postChatMessage'>['body']>;

interface Outgoing {
  /** The Idempotency-Key: the same for every try, so the server stores the message once. */
  key: string;
  body: ChatBody;
  status: 'sending' | 'failed' | 'retrying';
  error: string | null;
}

const STATE_TEXT: Record<ChatMessage['state'], string> = {
  sent: 'Sent',
  delivered: 'Delivered to the crew',
  read: 'Read by the crew',
};

const fromHospital = (m: ChatMessage) => m.source === 'web_hospital';

/** Whether the console tab is on screen: messages in a hidden tab are not read yet. */
function usePageVisible(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      document.addEventListener('visibilitychange', onChange);
      return () => document.removeEventListener('visibilitychange', onChange);
    },
    () => document.visibilityState !== 'hidden',
  );
}

export interface ChatPanelProps {
  hospitalId: string;
  caseId: string;
  /** Sent as the message's organisation. */
  hospitalName: string;
  /** The case is closed (the patient arrived): the conversation is read-only. */
  closed: boolean;
}

/**
 * The case's conversation with the crew, live both ways. Enter or the Send button sends; each message
 * carries its own Idempotency-Key, so a retry after a lost answer never posts it twice. A message
 * without an answer is retried by itself; one the server refused shows why, with Retry and Discard.
 * Crew messages shown here are marked read for the hospital (the board's unread count goes down).
 */
export function ChatPanel({ hospitalId, caseId, hospitalName, closed }: ChatPanelProps) {
  const queryClient = useQueryClient();
  const chat = useCaseChat(hospitalId, caseId);
  const [text, setText] = useState('');
  const [outgoing, setOutgoing] = useState<Outgoing[]>([]);
  const list = useRef<HTMLOListElement>(null);
  const markedRead = useRef(new Set<string>());
  const messages = chat.data?.messages;
  const visible = usePageVisible();

  const deliver = useCallback(
    async (entry: Outgoing) => {
      setOutgoing((list) => list.map((o) => (o.key === entry.key ? { ...o, status: 'sending', error: null } : o)));
      try {
        const stored = await api('postChatMessage', {
          params: { id: caseId },
          body: entry.body,
          idempotencyKey: entry.key,
        });
        queryClient.setQueryData(
          caseKeys.chat(hospitalId, caseId),
          (current: { messages: ChatMessage[] } | undefined) => mergeChatMessage(current, stored),
        );
        setOutgoing((list) => list.filter((o) => o.key !== entry.key));
      } catch (error) {
        const noAnswer = error instanceof ApiError && error.status === null;
        const message = error instanceof Error ? error.message : String(error);
        setOutgoing((list) =>
          list.map((o) =>
            o.key === entry.key ? { ...o, status: noAnswer ? 'retrying' : 'failed', error: message } : o,
          ),
        );
      }
    },
    [caseId, hospitalId, queryClient],
  );

  // Messages that got no answer are tried again, with the same key, until they get one.
  useEffect(() => {
    const waiting = outgoing.filter((o) => o.status === 'retrying');
    if (waiting.length === 0) return undefined;
    const timer = setTimeout(() => waiting.forEach((o) => void deliver(o)), CHAT_RETRY_MS);
    return () => clearTimeout(timer);
  }, [outgoing, deliver]);

  // Crew messages on screen are read: tell the crew (and the board's unread count).
  useEffect(() => {
    if (!messages) return;
    const unread = messages.filter((m) => !fromHospital(m) && m.state !== 'read' && !markedRead.current.has(m._id));
    if (unread.length === 0 || !visible) return;
    for (const m of unread) markedRead.current.add(m._id);
    void Promise.allSettled(
      unread.map((m) => api('chatMessageRead', { params: { id: caseId, messageId: m._id } })),
    ).then((results) => {
      results.forEach((result, i) => {
        const id = unread[i]?._id;
        if (result.status === 'rejected' && id) markedRead.current.delete(id);
      });
      void queryClient.invalidateQueries({ queryKey: boardKeys.board(hospitalId), exact: true });
    });
  }, [messages, visible, caseId, hospitalId, queryClient]);

  // The live channel can bring our own message before the POST answers: show it once, as stored.
  const pending = outgoing.filter(
    (o) =>
      !messages?.some(
        (m) => fromHospital(m) && m.clientCreatedAt === o.body.clientCreatedAt && m.content === o.body.message,
      ),
  );
  const count = (messages?.length ?? 0) + pending.length;
  // The newest message in view — by scrolling the list only, never the page around it.
  useEffect(() => {
    const element = list.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [count]);

  const send = () => {
    const content = text.trim();
    if (content === '' || closed) return;
    const now = new Date().toISOString();
    const entry: Outgoing = {
      key: crypto.randomUUID(),
      body: {
        clientCreatedAt: now,
        timestamp: now,
        deviceId: DEVICE_ID,
        source: 'web_hospital',
        senderOrganization: hospitalName,
        type: 'CHAT',
        message: content,
      },
      status: 'sending',
      error: null,
    };
    setText('');
    setOutgoing((list) => [...list, entry]);
    void deliver(entry);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    send();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };

  return (
    <section className="panel chat-panel" aria-labelledby="chat-title">
      <h2 id="chat-title">Chat with the crew</h2>
      {chat.isPending && <p role="status">Loading the chat…</p>}
      {chat.isError && (
        <p role="alert" className="banner banner-error">
          {chat.error.message}
        </p>
      )}
      <div role="log" aria-label="Chat messages" aria-live="polite">
        <ol ref={list} className="chat-list" tabIndex={0}>
          {messages?.map((m) => (
            <ChatItem key={m._id} caseId={caseId} message={m} />
          ))}
          {pending.map((o) => (
            <li key={o.key} className="chat-item chat-mine" data-state={o.status}>
              <p className="chat-text">{o.body.message}</p>
              <p className="chat-meta">
                {o.status === 'sending' && <span className="chat-state">Sending…</span>}
                {o.status === 'retrying' && (
                  <span className="chat-state chat-state-warn">No connection — trying again…</span>
                )}
                {o.status === 'failed' && (
                  <>
                    <span className="chat-state chat-state-failed" role="alert">
                      Not sent: {o.error}
                    </span>
                    <button type="button" className="link-button" onClick={() => void deliver(o)}>
                      Retry
                    </button>
                    <button
                      type="button"
                      className="link-button"
                      onClick={() => setOutgoing((list) => list.filter((x) => x.key !== o.key))}
                    >
                      Discard
                    </button>
                  </>
                )}
              </p>
            </li>
          ))}
        </ol>
      </div>
      {chat.isSuccess && count === 0 && <p className="muted">No messages yet.</p>}
      {closed ? (
        <p className="muted">The patient has arrived; the chat is closed.</p>
      ) : (
        <form className="chat-compose" onSubmit={onSubmit}>
          <label htmlFor="chat-input" className="visually-hidden">
            Message to the crew
          </label>
          <textarea
            id="chat-input"
            className="chat-input"
            rows={2}
            value={text}
            maxLength={CHAT_MESSAGE_MAX_LENGTH}
            placeholder="Write to the crew — Enter sends, Shift+Enter for a new line"
            onChange={(event) => setText(event.target.value)}
            onKeyDown={onKeyDown}
          />
          <button type="submit" className="button button-primary" disabled={text.trim() === ''}>
            Send
          </button>
        </form>
      )}
    </section>
  );
}

function ChatItem({ caseId, message }: { caseId: string; message: ChatMessage }) {
  const mine = fromHospital(message);
  return (
    <li className={mine ? 'chat-item chat-mine' : 'chat-item chat-theirs'} data-message-id={message._id}>
      <p className="chat-sender">
        <strong>{message.senderName}</strong>
        {message.senderOrganization && <span className="muted"> · {message.senderOrganization}</span>}
        <time dateTime={message.createdAt}> {formatClock(message.createdAt)}</time>
      </p>
      {message.type === 'VOICE_MEMO' ? (
        <VoiceMemo caseId={caseId} message={message} />
      ) : (
        <p className="chat-text">{message.content}</p>
      )}
      {mine && (
        <p className="chat-meta">
          <span className={`chat-state chat-state-${message.state}`} data-state={message.state}>
            {message.state === 'sent' ? '✓' : '✓✓'} {STATE_TEXT[message.state]}
          </span>
        </p>
      )}
    </li>
  );
}

function VoiceMemo({ caseId, message }: { caseId: string; message: ChatMessage }) {
  const link = useMediaLink(caseId, message.mediaId);
  const length = message.length === null ? null : formatLength(message.length * 1000);
  return (
    <div className="chat-voice">
      <p className="chat-text">Voice memo{length ? ` · ${length}` : ''}</p>
      {link.data ? (
        <audio
          controls
          preload="metadata"
          src={link.data.url}
          aria-label={`Voice memo${length ? `, ${length}` : ''}`}
        />
      ) : link.isError ? (
        <p className="muted small">
          {link.error.message}{' '}
          <button type="button" className="link-button" onClick={() => void link.refetch()}>
            Try again
          </button>
        </p>
      ) : (
        <p className="muted small">Loading the recording…</p>
      )}
    </div>
  );
}
