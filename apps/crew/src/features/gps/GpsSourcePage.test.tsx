import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { GPS_CONFIG_DEFAULTS, GpsConfig, type GpsStatus } from '@inbound/contract';
import { mockFetch } from '../../test/fetchMock';
import { currentModemFix, useDesktopGps } from './desktopGps';
import { GpsSourcePage } from './GpsSourcePage';

const config = GpsConfig.parse(GPS_CONFIG_DEFAULTS);
const now = Date.now();
const fix = {
  time: new Date(now - 2_000).toISOString(),
  receivedAt: new Date(now - 1_000).toISOString(),
  lat: 42.3601,
  lon: -71.0589,
  speedMps: 11.176,
  course: 90,
  format: 'TAIP' as const,
  sentence: 'RPV',
};
const status: GpsStatus = {
  config,
  listening: 'udp4 0.0.0.0:21000',
  error: null,
  counters: { received: 12, badChecksum: 2, invalid: 1, used: 9, repeated: 0, ignored: 0 },
  recent: [
    {
      at: fix.receivedAt,
      text: '>RPV15714+3739438-1220384601512612;ID=1234;*7E<',
      result: 'badChecksum',
      reason: 'checksum does not match',
    },
  ],
  lastFix: fix,
};

function renderPage() {
  const router = createMemoryRouter(
    [
      { path: '/gpsSource', element: <GpsSourcePage /> },
      { path: '/settings', element: null },
    ],
    {
      initialEntries: ['/gpsSource'],
    },
  );
  return render(<RouterProvider router={router} />);
}

describe('/gpsSource (desktop)', () => {
  it('shows the config, refuses a bad field with its message, saves a good one; the live view shows counters and sentences', async () => {
    useDesktopGps.setState({ connected: true, status, fix });
    const api = mockFetch({
      'GET /desktop/gps/config': { body: { config } },
      'PUT /desktop/gps/config': (request) => {
        const body = request.body as { port: string };
        if (body.port === '0')
          return {
            status: 400,
            body: {
              message: 'The GPS settings were not saved: check the marked fields',
              fieldErrors: { port: 'Port must be a whole number from 1 to 65535' },
            },
          };
        return { body: { config: { ...config, port: Number(body.port), dataFormat: 'NMEA' } } };
      },
    });
    renderPage();
    const port = await screen.findByLabelText('Port');
    expect(port).toHaveValue('21000');
    expect(screen.getByLabelText('Port type')).toHaveValue('udp4');
    expect(screen.getByLabelText('Data format')).toHaveValue('TAIP');

    await userEvent.clear(port);
    await userEvent.type(port, '0');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Port must be a whole number from 1 to 65535')).toBeVisible();
    expect(screen.getByRole('alert')).toHaveTextContent('check the marked fields');

    await userEvent.clear(port);
    await userEvent.type(port, '21001');
    await userEvent.selectOptions(screen.getByLabelText('Data format'), 'NMEA');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved. The new GPS settings are in use.')).toBeVisible();
    expect(api.requests.at(-1)?.body).toMatchObject({ port: '21001', dataFormat: 'NMEA', portType: 'udp4' });

    const live = screen.getByRole('region', { name: 'Live GPS' });
    expect(within(live).getByText('udp4 0.0.0.0:21000')).toBeVisible();
    expect(within(live).getByTestId('gps-counter-badChecksum')).toHaveTextContent('2');
    expect(within(live).getByTestId('gps-counter-used')).toHaveTextContent('9');
    expect(within(live).getByTestId('gps-last-fix')).toHaveTextContent('42.36010° N, 71.05890° W');
    expect(within(live).getByText('checksum does not match')).toBeVisible();
  });

  it('serial: asks for the device and the baud rate instead of a port number and host', async () => {
    useDesktopGps.setState({ connected: true, status, fix });
    mockFetch({
      'GET /desktop/gps/config': { body: { config: { ...config, portType: 'serial', port: '/dev/ttyUSB0' } } },
    });
    renderPage();
    expect(await screen.findByLabelText('Serial device')).toHaveValue('/dev/ttyUSB0');
    expect(screen.getByLabelText('Baud rate')).toHaveValue('4800');
    expect(screen.queryByLabelText('Host')).toBeNull();
  });
});

describe('which position the case sends', () => {
  it("uses the modem's fix while it is fresh, and falls back after 30 s of quiet or with source 'browser'", () => {
    const state = { connected: true, status, fix };
    expect(currentModemFix(state, now)).toBe(fix);
    // The fix was taken 2 s before `now`: its age is what counts, not the time since it arrived.
    expect(currentModemFix(state, now + 27_500)).toBe(fix);
    expect(currentModemFix(state, now + 28_500)).toBeNull();
    expect(currentModemFix({ ...state, connected: false }, now)).toBeNull();
    expect(
      currentModemFix({ ...state, status: { ...status, config: { ...config, source: 'browser' } } }, now),
    ).toBeNull();
  });
});
