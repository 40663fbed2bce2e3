import { useId, useState, type ReactNode } from 'react';
import { messages } from '@inbound/contract';

const TABS = ['COMPLAINTS', 'MEDIA', 'CHAT'] as const;
type TabName = (typeof TABS)[number];

/** COMPLAINTS / MEDIA / CHAT (spec §2). Media and chat are built by their own issues; until then they say so. */
export function CaseTabs({ complaints }: { complaints: ReactNode }) {
  const [tab, setTab] = useState<TabName>('COMPLAINTS');
  const baseId = useId();
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
            onClick={() => setTab(name)}
          >
            {name}
          </button>
        ))}
      </div>
      <div className="case-tabs__panel" role="tabpanel" id={`${baseId}-panel`} aria-labelledby={`${baseId}-${tab}`}>
        {tab === 'COMPLAINTS' && complaints}
        {tab === 'MEDIA' && <p className="empty-state">{messages.mediaComingLater}</p>}
        {tab === 'CHAT' && <p className="empty-state">{messages.chatComingLater}</p>}
      </div>
    </section>
  );
}
