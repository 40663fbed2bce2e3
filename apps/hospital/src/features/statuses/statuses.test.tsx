import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { HospitalStatus } from '@inbound/contract';
import { StatusesView, type StatusesViewProps } from './StatusesView';
import { activeStatusesFromEvent } from './statusEvent';

const diversion: HospitalStatus = {
  _id: 's1',
  status: 'CT scanner down',
  priority: 'urgent',
  setAt: '2026-11-22T03:00:00.000Z',
};
const critical: HospitalStatus = {
  _id: 's2',
  status: 'On diversion — no stroke patients',
  priority: 'critical',
  setAt: '2026-11-22T03:30:00.000Z',
};

function renderView(props: Partial<StatusesViewProps> = {}) {
  const onAdd = vi.fn();
  const onClear = vi.fn();
  render(
    <StatusesView
      statuses={[]}
      onAdd={onAdd}
      onClear={onClear}
      adding={false}
      clearingId={null}
      error={null}
      {...props}
    />,
  );
  return { onAdd, onClear };
}

afterEach(cleanup);

describe('StatusesView', () => {
  it('lists critical before urgent, each with its priority as words and colour class', () => {
    renderView({ statuses: [diversion, critical] });
    const items = within(screen.getByRole('list', { name: 'Active statuses' })).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]?.textContent).toContain('Critical');
    expect(items[0]?.textContent).toContain('On diversion — no stroke patients');
    expect(items[0]?.className).toContain('status-critical');
    expect(items[1]?.textContent).toContain('Urgent');
    expect(items[1]?.className).toContain('status-urgent');
  });

  it('says when nothing is active', () => {
    renderView();
    expect(screen.getByText('No active status. Crews see the hospital as normal.')).toBeTruthy();
  });

  it('sends the trimmed text with the chosen priority, and empties the field', async () => {
    const user = userEvent.setup();
    const { onAdd } = renderView();
    await user.type(screen.getByLabelText('New status'), '  Cath lab closed  ');
    await user.selectOptions(screen.getByLabelText('Priority'), 'critical');
    await user.click(screen.getByRole('button', { name: 'Set status' }));
    expect(onAdd).toHaveBeenCalledWith({ status: 'Cath lab closed', priority: 'critical' });
    expect((screen.getByLabelText('New status') as HTMLInputElement).value).toBe('');
  });

  it('refuses a blank status without calling the server', async () => {
    const user = userEvent.setup();
    const { onAdd } = renderView();
    await user.type(screen.getByLabelText('New status'), '   ');
    await user.click(screen.getByRole('button', { name: 'Set status' }));
    expect(onAdd).not.toHaveBeenCalled();
    expect(screen.getByText('status is required')).toBeTruthy();
  });

  it('clears the chosen status, and disables only that button while clearing', async () => {
    const user = userEvent.setup();
    const { onClear } = renderView({ statuses: [diversion, critical] });
    await user.click(screen.getByRole('button', { name: 'Clear status CT scanner down' }));
    expect(onClear).toHaveBeenCalledWith('s1');
    cleanup();
    renderView({ statuses: [diversion, critical], clearingId: 's1' });
    expect((screen.getByRole('button', { name: 'Clear status CT scanner down' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    expect(
      (screen.getByRole('button', { name: 'Clear status On diversion — no stroke patients' }) as HTMLButtonElement)
        .disabled,
    ).toBe(false);
  });

  it("shows the server's message when a change fails", () => {
    renderView({ error: 'You do not have access to this hospital.' });
    expect(screen.getByRole('alert').textContent).toBe('You do not have access to this hospital.');
  });
});

describe('activeStatusesFromEvent', () => {
  const data = { hospitalId: 'h1', activeStatuses: [critical] };

  it('takes the whole active list from a hospital.status notice', () => {
    expect(activeStatusesFromEvent({ type: 'hospital.status', data }, 'h1')).toEqual(data);
  });

  it('ignores other events, other hospitals and malformed notices', () => {
    expect(activeStatusesFromEvent({ type: 'case.updated', data }, 'h1')).toBeNull();
    expect(activeStatusesFromEvent({ type: 'hospital.status', data }, 'h2')).toBeNull();
    expect(activeStatusesFromEvent({ type: 'hospital.status', data: { hospitalId: 'h1' } }, 'h1')).toBeNull();
  });
});
