import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render as renderBare, screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router';
import type { Hospital, User } from '@inbound/contract';
import { HospitalHeader } from './HospitalHeader';

const user: User = {
  id: 'u-ed1',
  _id: 'u-ed1',
  username: 'ed1',
  email: null,
  displayName: 'Taylor Brooks',
  features: [],
  emsAgencyMemberships: [],
  emsAgenciesAdministered: [],
  hospitalMemberships: [{ _id: 'h1' }],
  roles: ['edStaff'],
};

const hospital: Hospital = {
  _id: 'h1',
  id: 'h1',
  name: 'Riverside Regional Medical Center',
  nonTwiage: false,
  statusChannelId: 'hospital-status:h1',
  edPhoneNumbers: [],
  activeStatuses: [],
  supportedFeatures: [],
  location: null,
};

afterEach(cleanup);

/** The header links to the administration for admins: it needs a router around it. */
const render = (ui: ReactElement) => renderBare(ui, { wrapper: MemoryRouter });

describe('HospitalHeader', () => {
  it("names the user's hospital as the page heading, with who is signed in", () => {
    render(<HospitalHeader user={user} hospitals={[hospital]} onSignOut={() => undefined} signingOut={false} />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Riverside Regional Medical Center');
    expect(screen.getByText('Taylor Brooks')).toBeTruthy();
    expect(screen.getByText('ED staff')).toBeTruthy();
  });

  it('says what an organisation admin without a hospital is looking at, and links to the administration', () => {
    render(
      <HospitalHeader
        user={{ ...user, hospitalMemberships: [], roles: ['orgAdmin'] }}
        hospitals={[]}
        onSignOut={() => undefined}
        signingOut={false}
      />,
    );
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Organisation administration');
    openAccount();
    expect(screen.getByRole('link', { name: 'Administration' }).getAttribute('href')).toBe('/admin');
  });

  it('shows what the board puts in it (its live state and sound switch)', () => {
    render(
      <HospitalHeader user={user} hospitals={[hospital]} onSignOut={() => undefined} signingOut={false}>
        <span>Live</span>
      </HospitalHeader>,
    );
    expect(screen.getByRole('banner').textContent).toContain('Live');
    openAccount();
    expect(screen.queryByRole('link', { name: 'Administration' })).toBeNull();
  });

  it('signs out on Sign out, and shows that it is doing so', () => {
    const onSignOut = vi.fn();
    const { rerender } = render(
      <HospitalHeader user={user} hospitals={[hospital]} onSignOut={onSignOut} signingOut={false} />,
    );
    openAccount();
    screen.getByRole('button', { name: 'Sign out' }).click();
    expect(onSignOut).toHaveBeenCalledOnce();
    rerender(<HospitalHeader user={user} hospitals={[hospital]} onSignOut={onSignOut} signingOut />);
    expect(screen.getByRole('button', { name: 'Signing out...' })).toHaveProperty('disabled', true);
  });

  it('keeps the account folded until asked, and folds it again on Escape or a click elsewhere', () => {
    render(<HospitalHeader user={user} hospitals={[hospital]} onSignOut={() => undefined} signingOut={false} />);
    const account = screen.getByRole('button', { name: /Taylor Brooks/ });
    expect(account.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('link', { name: 'Sign-in security' })).toBeNull();

    act(() => account.click());
    expect(account.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('link', { name: 'Sign-in security' }).getAttribute('href')).toBe('/account/security');

    fireEvent.keyDown(document, { key: 'Escape' });
    expect(account.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(account);

    act(() => account.click());
    fireEvent.pointerDown(screen.getByRole('heading', { level: 1 }));
    expect(screen.queryByRole('button', { name: 'Sign out' })).toBeNull();
  });
});

function openAccount() {
  act(() => screen.getByRole('button', { name: /Taylor Brooks|Organisation admin/ }).click());
}
