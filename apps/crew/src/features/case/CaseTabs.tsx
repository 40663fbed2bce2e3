import { useEffect, useId, useState, type ReactNode } from 'react';
import { useSession } from '../../lib/session';
import { ChatTab } from '../chat/ChatTab';
import { countUnread } from '../chat/chatModel';
import { markRead, useChatMessages } from '../chat/chatQueries';
import { markSeen, useLastSeen } from '../chat/lastSeen';
import { loadOutgoingChat } from '../chat/outgoing';
import { ChatVoiceMemoHost } from '../media/ChatVoiceMemoHost';
import { MediaTabPanel } from '../media/MediaTabPanel';
import { useCasePushTopic } from '../push/pushSubscription';
import { TransferModals } from '../transfer/TransferModals';

const TABS = ['COMPLAINTS', 'MEDIA', 'CHAT'] as const;
type TabName = (typeof TABS)[number];

/**
 * COMPLAINTS / MEDIA / CHAT (spec §2). The chat is followed here, whichever tab shows, so the CHAT tab
 * can carry its unread badge.
 */
export function CaseTabs({ complaints }: { complaints: ReactNode }) {
  const [tab, setTab] = useState<TabName>('COMPLAINTS');
  const baseId = useId();
  const caseId = useSession((state) => state.case?.id ?? null);
  const user = useSession((state) => state.user);
  const teamName = useSession((state) => state.selectedTeam?.name ?? '');
  const chat = useChatMessages(caseId, user?.id ?? null);
  const lastSeen = useLastSeen(caseId);
  const chatOpen = tab === 'CHAT';
  const unread = chatOpen || !user ? 0 : countUnread(chat, user.id, lastSeen);

  useCasePushTopic(caseId);

  useEffect(() => {
    void loadOutgoingChat();
  }, []);

  useEffect(() => {
    if (!chatOpen || !caseId || !user) return;
    const newest = chat.reduce((latest, message) => (message.createdAt > latest ? message.createdAt : latest), '');
    if (newest) markSeen(caseId, newest);
    markRead(caseId, chat, user.id);
  }, [chatOpen, chat, caseId, user]);

  return (
    <section className="case-tabs" aria-label="Case details">
      <div className="case-tabs__list" role="tablist">
        {TABS.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            id={`${baseId}-${name}`}
            className="case-tabs__tab"
            aria-selected={tab === name}
            aria-controls={`${baseId}-panel`}
            aria-label={name === 'CHAT' && unread > 0 ? `CHAT, ${unread} unread` : undefined}
            onClick={() => setTab(name)}
          >
            {name}
            {name === 'CHAT' && unread > 0 && (
              <span className="case-tabs__badge" aria-hidden="true">
                {unread > 99 ? '99+' : unread}
              </span>
            )}
          </button>
        ))}
      </div>
      <div className="case-tabs__panel" role="tabpanel" id={`${baseId}-panel`} aria-labelledby={`${baseId}-${tab}`}>
        {tab === 'COMPLAINTS' && complaints}
        {tab === 'MEDIA' && <MediaTabPanel />}
        {tab === 'CHAT' && caseId && user && (
          <ChatTab
            caseId={caseId}
            messages={chat}
            me={{ id: user.id, displayName: user.displayName, organization: teamName }}
          />
        )}
      </div>
      <TransferModals />
      <ChatVoiceMemoHost />
    </section>
  );
}
