/**
 * Deployment-specific values of the crew app, in one place. Each can be overridden at build time with a
 * `VITE_…` variable (see README), so an ambulance service can ship its own support line.
 */
import { BRAND_NAME_DEFAULT, CLIENT_VERSION } from '@inbound/contract';

const env = import.meta.env;

export const appConfig = {
  brandName: BRAND_NAME_DEFAULT,
  version: CLIENT_VERSION,
  /** The external forgot-password page the login screen's Reset Password link opens (spec §2). */
  resetPasswordUrl: (env.VITE_RESET_PASSWORD_URL as string | undefined) ?? '/v4/auth/forgot-password',
  supportEmail: (env.VITE_SUPPORT_EMAIL as string | undefined) ?? 'support@inbound.example',
  supportPhone: (env.VITE_SUPPORT_PHONE as string | undefined) ?? '+1 (800) 555-0142',
} as const;

/** `tel:` link target for a human-formatted phone number. */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}
