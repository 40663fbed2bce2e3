import { useState } from 'react';
import { messages } from '@inbound/contract';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { startTexts } from '../start/startScreen';
import { logout } from './logout';

/**
 * A Logout row that asks first (spec §2: Yes/Cancel). When changes are still waiting in the outbox, the
 * question says how many would be lost; only after Yes is the outbox cleared, then the session.
 */
export function LogoutButton({ className = 'menu__row menu__row--danger' }: { className?: string }) {
  const [confirming, setConfirming] = useState<{ unsent: number } | null>(null);

  const ask = async () => {
    let unsent = 0;
    try {
      const { caseOutbox } = await import('../../lib/caseOutbox');
      unsent = await caseOutbox.pendingCount();
    } catch (error) {
      console.error('the outbox could not be read', error);
    }
    setConfirming({ unsent });
  };

  const confirm = async () => {
    setConfirming(null);
    try {
      const { caseOutbox } = await import('../../lib/caseOutbox');
      await caseOutbox.clear();
    } catch (error) {
      console.error('the outbox could not be cleared', error);
    }
    await logout();
  };

  return (
    <>
      <button type="button" className={className} onClick={() => void ask()}>
        <span className="menu__label">{startTexts.logout}</span>
      </button>
      {confirming && (
        <ConfirmDialog
          title="Logout"
          message={
            confirming.unsent > 0
              ? `${messages.unsentChangesLogout(confirming.unsent)} ${messages.logoutConfirm}`
              : messages.logoutConfirm
          }
          confirmLabel="Yes"
          danger
          onCancel={() => setConfirming(null)}
          onConfirm={() => void confirm()}
        />
      )}
    </>
  );
}
