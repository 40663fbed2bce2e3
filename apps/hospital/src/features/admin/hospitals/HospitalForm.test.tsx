import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HOSPITAL_FEATURES, type AdminCreateHospitalBody, type AdminHospital } from '@inbound/contract';
import { HospitalForm } from './HospitalForm';

const hospital: AdminHospital = {
  id: 'h1',
  name: 'Riverside Regional Medical Center',
  nonTwiage: false,
  statusChannelId: 'hospital-status:h1',
  edPhoneNumbers: [{ name: 'ED Charge Nurse', phoneNumber: '+1-555-0100' }],
  supportedFeatures: HOSPITAL_FEATURES.map((name) => ({ name, enabled: name === 'liveConsult' })),
  location: { latitude: 41.4993, longitude: -81.6944 },
  agencyIds: ['a1'],
  createdAt: '2026-11-22T04:00:00.000Z',
  updatedAt: '2026-11-22T04:00:00.000Z',
};

function renderForm(current: AdminHospital | null) {
  const onSave = vi.fn<(body: AdminCreateHospitalBody) => void>();
  render(
    <HospitalForm hospital={current} saving={false} saveError={null} onSave={onSave} onCancel={() => undefined} />,
  );
  return onSave;
}

afterEach(cleanup);

describe('HospitalForm', () => {
  it('marks a bad phone number and a half-given location under their fields, sending nothing', async () => {
    const onSave = renderForm(hospital);
    const user = userEvent.setup();
    const number = screen.getByLabelText('Phone 1 number');
    await user.clear(number);
    await user.type(number, 'call the desk');
    await user.clear(screen.getByLabelText('Longitude'));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    expect(onSave).not.toHaveBeenCalled();
    expect(number.getAttribute('aria-invalid')).toBe('true');
    const message = document.getElementById(number.getAttribute('aria-describedby')!);
    expect(message?.textContent).toBe('phoneNumber must be a phone number such as +1-555-0100 (7 to 15 digits)');
    expect(screen.getByLabelText('Longitude').getAttribute('aria-invalid')).toBe('true');
  });

  it('sends every feature, the phone list and the location as edited', async () => {
    const onSave = renderForm(hospital);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Add phone number' }));
    await user.type(screen.getByLabelText('Phone 2 name'), 'Stroke Team');
    await user.type(screen.getByLabelText('Phone 2 number'), '+1 (555) 010-2222');
    await user.click(screen.getByLabelText('Crews can rate and comment on the handover'));
    await user.click(screen.getByLabelText('Not on the platform: crews can phone the ED, no case data is sent'));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    expect(onSave).toHaveBeenCalledTimes(1);
    const body = onSave.mock.calls[0]![0];
    expect(body.nonTwiage).toBe(true);
    expect(body.edPhoneNumbers).toEqual([
      { name: 'ED Charge Nurse', phoneNumber: '+1-555-0100' },
      { name: 'Stroke Team', phoneNumber: '+1 (555) 010-2222' },
    ]);
    expect(body.supportedFeatures.filter((f) => f.enabled).map((f) => f.name)).toEqual(['liveConsult', 'emsFeedback']);
    expect(body.location).toEqual({ latitude: 41.4993, longitude: -81.6944 });
  });

  it('sends no location when both coordinates are empty', async () => {
    const onSave = renderForm(null);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Name'), 'Northgate');
    await user.type(screen.getByLabelText('Phone 1 number'), '555-0100 123');
    await user.click(screen.getByRole('button', { name: 'Create hospital' }));
    expect(onSave.mock.calls[0]![0]).toMatchObject({ name: 'Northgate', location: null, nonTwiage: false });
  });
});
