import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import type { OffloadAlert } from '@inbound/contract';
import { ChargeNursesForm } from './ChargeNursesPanel';
import { lockSummary, OffloadAlertBar } from './OffloadAlerts';

afterEach(cleanup);

const staff = [
  { userId: 'u-ann', name: 'Ann Lee' },
  { userId: 'u-bo', name: 'Bo Park' },
  { userId: 'u-cy', name: 'Cy Diaz' },
];

const alert = (over: Partial<OffloadAlert> = {}): OffloadAlert => ({
  caseId: 'case-1',
  caseNumber: 'R-1042',
  hospitalId: 'h-riverside',
  hospitalName: 'Riverside Regional Medical Center',
  truckName: 'Medic 1',
  arrivedAt: '2026-11-27T10:00:00.000Z',
  thresholdMinutes: 30,
  alertedAt: '2026-11-27T10:31:00.000Z',
  ...over,
});

describe('Administration: charge nurses', () => {
  it('starts from the saved list and saves the ticked ED staff, in the staff order', async () => {
    const onSave = vi.fn();
    render(
      <ChargeNursesForm
        current={{ chargeNurses: [{ userId: 'u-cy', name: 'Cy Diaz' }], staff }}
        saving={false}
        error={null}
        onSave={onSave}
      />,
    );
    const form = screen.getByRole('form', { name: 'Charge nurses' });
    const box = (name: string) => within(form).getByRole<HTMLInputElement>('checkbox', { name });
    expect(box('Cy Diaz').checked).toBe(true);
    expect(box('Ann Lee').checked).toBe(false);
    const user = userEvent.setup();
    await user.click(within(form).getByRole('checkbox', { name: 'Ann Lee' }));
    await user.click(within(form).getByRole('button', { name: 'Save charge nurses' }));
    expect(onSave).toHaveBeenCalledWith(['u-ann', 'u-cy']);
  });

  it("shows the server's refusal", () => {
    render(
      <ChargeNursesForm
        current={{ chargeNurses: [], staff }}
        saving={false}
        error="userIds: u-x is not on this hospital's ED staff list."
        onSave={() => undefined}
      />,
    );
    expect(screen.getByRole('alert').textContent).toBe("userIds: u-x is not on this hospital's ED staff list.");
  });
});

describe("the charge nurse's offload alerts", () => {
  it('lists each waiting truck with its case and hospital, and the way to the case', () => {
    render(
      <MemoryRouter>
        <OffloadAlertBar alerts={[alert(), alert({ caseId: 'case-2', caseNumber: 'R-1043', truckName: 'Medic 7' })]} />
      </MemoryRouter>,
    );
    const items = screen.getAllByTestId('offload-alert');
    expect(items).toHaveLength(2);
    expect(items[0]?.textContent).toMatch(
      /^Charge nurse: offload over 30 minMedic 1 \(case R-1042\) at Riverside Regional Medical Center · arrived \d\d:\d\d/,
    );
    expect(within(items[1]!).getByRole('link', { name: 'Open case' }).getAttribute('href')).toBe(
      '/case/h-riverside/case-2',
    );
  });

  it('shows nothing without alerts', () => {
    const { container } = render(<OffloadAlertBar alerts={[]} />);
    expect(container.textContent).toBe('');
  });

  it('puts over the idle lock only the threshold, the count and the hospital', () => {
    const summary = lockSummary([alert(), alert({ caseId: 'case-2', caseNumber: 'R-1043', truckName: 'Medic 7' })]);
    expect(summary).toEqual([
      {
        key: 'offload-charge-nurse-h-riverside',
        title: 'Charge nurse: offload over 30 min',
        detail: '2 ambulances wait for handoff at Riverside Regional Medical Center',
      },
    ]);
    expect(JSON.stringify(summary)).not.toMatch(/R-104|Medic \d/);
  });
});
