import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { AdminAgency, AdminCreateAgencyBody } from '@inbound/contract';
import { AgencyForm } from './AgencyForm';
import { TrucksPanel } from './TrucksPanel';

const hospitals = [
  { id: 'h-river', name: 'Riverside Regional' },
  { id: 'h-mary', name: "St. Mary's" },
  { id: 'h-mercy', name: 'Mercy General' },
];

const agency: AdminAgency = {
  id: 'a1',
  name: 'Riverside EMS',
  complaintSet: 'Standard',
  maxCaseLength: 240,
  hospitalIds: ['h-river', 'h-mary'],
  monitors: [{ id: 'm1', name: 'LIFEPAK 15', type: 'lifepak' }],
  emtLevels: [{ name: 'EMT' }],
  patientInfoForm: {
    id: 'f1',
    title: 'Patient Info',
    subtitle: '',
    fields: [{ key: 'firstName', name: 'First Name', type: 'text' }],
  },
  trucks: [{ id: 't1', name: 'Medic 1', isALS: true }],
  createdAt: '2026-11-22T04:00:00.000Z',
  updatedAt: '2026-11-22T04:00:00.000Z',
};

function renderForm(current: AdminAgency | null, saveError: string | null = null) {
  const onSave = vi.fn<(body: AdminCreateAgencyBody) => void>();
  render(
    <AgencyForm
      agency={current}
      hospitals={hospitals}
      complaintSets={['Standard', 'Hilltop']}
      saving={false}
      saveError={saveError}
      onSave={onSave}
      onCancel={() => undefined}
    />,
  );
  return onSave;
}

afterEach(cleanup);

describe('AgencyForm', () => {
  it('shows each problem under its field and sends nothing', async () => {
    const onSave = renderForm(null);
    const user = userEvent.setup();
    const length = screen.getByLabelText('Auto-close cases after (minutes)');
    await user.clear(length);
    await user.type(length, '5');
    await user.click(screen.getByRole('button', { name: 'Create agency' }));

    expect(onSave).not.toHaveBeenCalled();
    expect(screen.getByLabelText('Name').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('name is required')).toBeTruthy();
    expect(screen.getByText('complaintSet is required')).toBeTruthy();
    expect(screen.getByText('maxCaseLength must be at least 15 minutes')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('Some fields need attention');
  });

  it('flags a duplicate patient info field key on the second field', async () => {
    const onSave = renderForm(agency);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Add field' }));
    await user.type(screen.getByLabelText('Field 2 label'), 'Given name');
    await user.type(screen.getByLabelText('Key', { selector: '[id$="-ff-1-key"]' }), 'firstName');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(onSave).not.toHaveBeenCalled();
    expect(screen.getByText('duplicate key "firstName"')).toBeTruthy();
  });

  it('sends the edited agency: hospitals reordered and added, a monitor added, the form removed', async () => {
    const onSave = renderForm(agency);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: "Move St. Mary's up" }));
    await user.selectOptions(screen.getByLabelText('Add a hospital'), 'h-mercy');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await user.click(screen.getByRole('button', { name: 'Add monitor' }));
    await user.type(screen.getByLabelText('Monitor 2 name'), 'ZOLL X');
    await user.type(screen.getAllByLabelText('Type')[1]!, 'zoll');
    await user.click(screen.getByLabelText('Crews fill in a patient info form'));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    expect(onSave).toHaveBeenCalledTimes(1);
    expect(onSave.mock.calls[0]![0]).toEqual({
      name: 'Riverside EMS',
      complaintSet: 'Standard',
      maxCaseLength: 240,
      hospitalIds: ['h-mary', 'h-river', 'h-mercy'],
      monitors: [
        { id: 'm1', name: 'LIFEPAK 15', type: 'lifepak' },
        { name: 'ZOLL X', type: 'zoll' },
      ],
      emtLevels: [{ name: 'EMT' }],
      patientInfoForm: null,
    });
  });

  it("shows the server's message when saving failed", () => {
    renderForm(agency, 'body.complaintSet: no complaint set is named "Gone"');
    expect(screen.getByRole('alert').textContent).toContain('body.complaintSet: no complaint set is named "Gone"');
  });
});

describe('TrucksPanel', () => {
  it('asks before removing, and shows why the server refused', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      new Response(JSON.stringify({ message: 'Medic 1 is on open case 1123-4: remove it once that case is closed.' }), {
        status: 409,
        headers: { 'Content-Type': 'application/json' },
      }),
    );
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { mutations: { retry: false } } })}>
        <TrucksPanel agencyId="a1" trucks={agency.trucks} />
      </QueryClientProvider>,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Remove Medic 1' }));
    expect(fetch).not.toHaveBeenCalled();
    const confirm = screen.getByRole('group', { name: 'Confirm removing Medic 1' });
    await user.click(within(confirm).getByRole('button', { name: 'Yes, remove' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('Medic 1 is on open case 1123-4'));
    const [url, init] = fetch.mock.calls[0]!;
    expect(String(url)).toBe('/v4/admin/agencies/a1/trucks/t1');
    expect(init?.method).toBe('DELETE');
  });

  it('checks a new truck name before sending it', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch');
    render(
      <QueryClientProvider client={new QueryClient()}>
        <TrucksPanel agencyId="a1" trucks={[]} />
      </QueryClientProvider>,
    );
    await userEvent.setup().click(screen.getByRole('button', { name: 'Add truck' }));
    expect(screen.getByText('name is required')).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
  });
});
