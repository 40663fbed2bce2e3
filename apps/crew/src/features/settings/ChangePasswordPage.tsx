import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { PASSWORD_MIN_LENGTH } from '@inbound/contract';
import { api } from '../../lib/apiClient';
import { useSession } from '../../lib/session';
import { loadTeams } from '../auth/signIn';
import { errorMessage } from '../../lib/errors';
import { paths } from '../../routing/paths';
import { Banner } from '../../ui/Banner';
import { TextField } from '../../ui/TextField';
import { TopBar } from '../../ui/TopBar';
import type { FieldErrors } from '../auth/validators';
import { validateChangePassword, type ChangePasswordFields } from './validators';

const empty: ChangePasswordFields = { currentPassword: '', newPassword: '', verifyPassword: '' };

/**
 * `/changePassword`. As spec §5 says, the call is still made after the field messages are set: the
 * server answers with its own message (what is wrong, or that the password changed), shown as-is.
 */
export function ChangePasswordPage() {
  const [fields, setFields] = useState(empty);
  const [errors, setErrors] = useState<FieldErrors<ChangePasswordFields>>({});
  const [result, setResult] = useState<{ kind: 'error' | 'success'; message: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const update = (name: keyof ChangePasswordFields) => (value: string) => {
    setFields((current) => ({ ...current, [name]: value }));
    setErrors((current) => ({ ...current, [name]: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setErrors(validateChangePassword(fields));
    setResult(null);
    setBusy(true);
    try {
      const { message } = await api.call('changePassword', { body: fields });
      setFields(empty);
      setResult({ kind: 'success', message });
      // First password after an administrator's one-time password: now the user and teams can be read,
      // and the guard moves on to team selection.
      if (useSession.getState().user?.mustChangePassword) {
        const user = await api.call('me');
        const teams = await loadTeams(user);
        useSession.setState({ user, teams });
      }
    } catch (error) {
      setResult({ kind: 'error', message: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="page">
      <TopBar
        title="Change Password"
        start={
          <Link className="top-bar__button" to={paths.settings}>
            Back
          </Link>
        }
      />
      <div className="page__content">
        <form className="form" onSubmit={submit} noValidate aria-label="Change Password">
          {result && <Banner kind={result.kind} message={result.message} />}
          <TextField
            label="Current Password"
            type="password"
            autoComplete="current-password"
            value={fields.currentPassword}
            onChange={update('currentPassword')}
            error={errors.currentPassword}
          />
          <TextField
            label="New Password"
            type="password"
            autoComplete="new-password"
            value={fields.newPassword}
            onChange={update('newPassword')}
            error={errors.newPassword}
          />
          <p className="field__hint">At least {PASSWORD_MIN_LENGTH} characters.</p>
          <TextField
            label="Confirm New Password"
            type="password"
            autoComplete="new-password"
            value={fields.verifyPassword}
            onChange={update('verifyPassword')}
            error={errors.verifyPassword}
          />
          <button type="submit" className="button button--primary button--block" disabled={busy}>
            Change Password
          </button>
        </form>
      </div>
    </div>
  );
}
