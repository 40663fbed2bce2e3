/** The desktop host's GPS config calls (apps/desktop), on the app's own origin. */
import { DESKTOP_GPS_CONFIG_PATH, GpsConfig, GpsConfigError, type GpsConfigInput } from '@inbound/contract';

export type SaveResult =
  { ok: true; config: GpsConfig } | { ok: false; message: string; fieldErrors: Record<string, string> };

export async function loadGpsConfig(): Promise<GpsConfig> {
  const response = await fetch(DESKTOP_GPS_CONFIG_PATH);
  if (!response.ok) throw new Error(`the desktop host answered ${response.status}`);
  const body = (await response.json()) as { config: unknown };
  return GpsConfig.parse(body.config);
}

export async function saveGpsConfig(config: GpsConfigInput): Promise<SaveResult> {
  const response = await fetch(DESKTOP_GPS_CONFIG_PATH, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(config),
  });
  const body: unknown = await response.json().catch(() => null);
  if (response.ok) return { ok: true, config: GpsConfig.parse((body as { config: unknown }).config) };
  const error = GpsConfigError.safeParse(body);
  if (error.success) return { ok: false, ...error.data };
  return {
    ok: false,
    message: `The GPS settings were not saved (the desktop host answered ${response.status})`,
    fieldErrors: {},
  };
}
