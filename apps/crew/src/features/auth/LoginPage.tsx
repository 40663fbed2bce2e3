import { useEffect } from 'react';
import { messages } from '@inbound/contract';
import { appConfig } from '../../lib/config';
import { SupportContact } from '../../ui/SupportContact';
import { SignInForm } from './SignInForm';

const loadSignIn = () => import('./signIn');

/** `/`: sign in. On success the session is set and the navigation guard moves on to team selection. */
export function LoginPage() {
  // The sign-in flow (API client, schemas) is fetched right after the screen shows, not before it.
  useEffect(() => {
    void loadSignIn();
  }, []);

  return (
    <div className="page page--login">
      <div className="login">
        <div className="login__brand">
          <span className="login__logo" aria-hidden="true" />
          <h1 className="login__title">{appConfig.brandName}</h1>
          <p className="login__subtitle">{messages.tagline}</p>
        </div>
        <SignInForm
          label="Login"
          signIn={async (username, password) => (await loadSignIn()).signIn(username, password)}
        />
        <a className="link-button" href={appConfig.resetPasswordUrl} target="_blank" rel="noreferrer">
          Reset Password
        </a>
        <SupportContact />
      </div>
    </div>
  );
}
