import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { IdleLock } from './IdleLock';
import { lockAlertsSnapshot, setLockAlerts, usePublishLockAlerts, type LockAlert } from './lockAlerts';

afterEach(() => {
  cleanup();
  localStorage.clear();
});

/** Stands in for the console behind the lock: patient details on screen, a summary published. */
function Console({ alerts }: { alerts: LockAlert[] }) {
  usePublishLockAlerts('team-alerts', alerts);
  return <p>Patient: Jordan Smith, 67 M, left-sided weakness</p>;
}

const stroke: LockAlert = {
  key: 'a1',
  title: 'Stroke team activated',
  detail: 'Case arriving at Mercy General · 10:42 · alert 3',
};

function renderLocked(alerts: LockAlert[]) {
  localStorage.setItem('inbound.console.locked', '1');
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <IdleLock>
        <Console alerts={alerts} />
      </IdleLock>
    </QueryClientProvider>,
  );
}

describe('alerts over the idle lock', () => {
  it('shows the summary on the lock screen, not the patient, and asks for the unlock to answer', () => {
    renderLocked([stroke]);
    const lock = screen.getByRole('dialog', { name: 'Console locked' });
    const alerts = within(lock).getByRole('alert', { name: 'Alerts' });
    expect(within(alerts).getByText('Stroke team activated')).toBeTruthy();
    expect(within(alerts).getByText('Case arriving at Mercy General · 10:42 · alert 3')).toBeTruthy();
    expect(within(alerts).getByText('Unlock to answer or open the case.')).toBeTruthy();
    // Nothing to answer from the lock screen: the only buttons are Unlock and Sign out.
    expect(within(lock).queryByRole('button', { name: 'On my way' })).toBeNull();
    expect(
      within(lock)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Unlock', 'Sign out']);
    // The console behind stays hidden from assistive technology and out of the lock screen.
    expect(lock.textContent).not.toContain('Jordan');
    expect(screen.getByText(/Jordan Smith/).closest('[aria-hidden="true"][inert]')).not.toBeNull();
  });

  it('shows no alert box when nothing calls', () => {
    renderLocked([]);
    const lock = screen.getByRole('dialog', { name: 'Console locked' });
    expect(within(lock).queryByRole('alert', { name: 'Alerts' })).toBeNull();
  });

  it('drops an alert once its source clears it or unmounts', () => {
    const view = renderLocked([stroke]);
    expect(screen.getAllByTestId('lock-alert')).toHaveLength(1);
    setLockAlerts('offload-h1', [
      { key: 'o', title: 'Charge nurse: offload over 30 min', detail: '1 ambulance waits for handoff' },
    ]);
    expect(lockAlertsSnapshot().map((a) => a.key)).toEqual(['a1', 'o']);
    setLockAlerts('offload-h1', []);
    view.unmount();
    expect(lockAlertsSnapshot()).toEqual([]);
  });
});
