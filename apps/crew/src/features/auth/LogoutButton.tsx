import { useEffect, useState } from 'react';
import { messages } from '@inbound/contract';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { startTexts } from '../start/startScreen';
import { logout } from './logout';

/** The changes still waiting in the outbox (0 when it cannot be read). */
async function unsentCount(): Promise<number> {
  try {
    const { caseOutbox } = await import('../../lib/caseOutbox');
    return await caseOutbox.pendingCount();
  } catch (error) {
    console.error('the outbox could not be read', error);
    return 0;
  }
}

/**
 * A Logout row that asks first (spec §2: Yes/Cancel). When changes are still waiting in the outbox, the
 * question says how many would be lost; only after Yes is the outbox cleared, then the session. `askNow`
 * asks at once: the row was tapped before the app drew it (Start's shell).
 */
export function LogoutButton({
  className = 'menu__row menu__row--danger',
  askNow = false,
}: {
  className?: string;
  askNow?: boolean;
}) {
  const [confirming, setConfirming] = useState<{ unsent: number } | null>(null);

  const ask = async () => setConfirming({ unsent: await unsentCount() });

  useEffect(() => {
    if (!askNow) return;
    let mounted = true;
    void unsentCount().then((unsent) => mounted && setConfirming({ unsent }));
    return () => {
      mounted = false;
    };
  }, [askNow]);

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
