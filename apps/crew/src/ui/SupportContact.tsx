import { appConfig, telHref } from '../lib/config';

/** Support e-mail and phone (login and start screens). */
export function SupportContact() {
  return (
    <section className="support" aria-label="Support">
      <p className="support__title">Need help? Contact support</p>
      <p className="support__links">
        <a href={`mailto:${appConfig.supportEmail}`}>{appConfig.supportEmail}</a>
        <a href={telHref(appConfig.supportPhone)}>{appConfig.supportPhone}</a>
      </p>
    </section>
  );
}
