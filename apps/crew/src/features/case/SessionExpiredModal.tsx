import { messages } from '@inbound/contract';
import { useSession } from '../../lib/session';
import { Modal } from '../../ui/Modal';
import { LogoutButton } from '../auth/LogoutButton';
import { SignInForm } from '../auth/SignInForm';
import { signIn } from '../auth/signIn';

/**
 * Spec §8 session expired, over the case screen: the token ran out or a call (or the outbox) met a 401
 * during a case. Signing in again keeps the case (same user) and releases the outbox's hold
 * (`signIn` calls `resume()`); Logout warns about unsent changes like every Logout.
 */
export function SessionExpiredModal() {
  const user = useSession((state) => state.user);
  return (
    <Modal title="Session expired" role="alertdialog" onClose={() => undefined}>
      <p className="modal__message">{messages.sessionExpired}</p>
      <p className="modal__message">{messages.sessionExpiredCaseOpen}</p>
      <SignInForm label="Authenticate again" initialUsername={user?.username ?? ''} signIn={signIn}>
        <LogoutButton className="button button--secondary button--block" />
      </SignInForm>
    </Modal>
  );
}
