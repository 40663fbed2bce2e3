import { useEffect, useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import {
  GPS_BAUD_RATES,
  GPS_DATA_FORMATS,
  GPS_PORT_TYPES,
  type GpsConfig,
  type GpsCounters,
  type GpsStatus,
} from '@inbound/contract';
import { paths } from '../../routing/paths';
import { Banner } from '../../ui/Banner';
import { TextField } from '../../ui/TextField';
import { TopBar } from '../../ui/TopBar';
import { fixAgeMs, useDesktopGps } from './desktopGps';
import { loadGpsConfig, saveGpsConfig } from './gpsConfigApi';
import { formatAge, formatCoordinates, useNow } from './useNow';
import './gps.css';

interface Draft {
  source: GpsConfig['source'];
  portType: GpsConfig['portType'];
  port: string;
  host: string;
  dataFormat: GpsConfig['dataFormat'];
  baudRate: string;
}

const toDraft = (config: GpsConfig): Draft => ({
  ...config,
  port: String(config.port),
  baudRate: String(config.baudRate),
});

/**
 * `/gpsSource` (desktop only, spec §2/§3): where the laptop gets the vehicle modem's GPS, saved to the
 * host's twiageConfig.json and applied at once, and a live view for the installer — what the host
 * listens on, the last fix, the counters and the last sentences as they arrive.
 */
export function GpsSourcePage() {
  const [draft, setDraft] = useState<Draft | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [result, setResult] = useState<{ kind: 'success' | 'error'; message: string } | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const status = useDesktopGps((state) => state.status);
  const connected = useDesktopGps((state) => state.connected);

  useEffect(() => {
    loadGpsConfig()
      .then((config) => setDraft(toDraft(config)))
      .catch((error: unknown) => setLoadError(`The GPS settings could not be read: ${(error as Error).message}`));
  }, []);

  const change = (field: keyof Draft) => (value: string) => {
    setDraft((current) => (current ? { ...current, [field]: value } : current));
    setFieldErrors(({ [field]: _cleared, ...rest }) => rest);
    setResult(null);
  };

  const save = async () => {
    if (!draft) return;
    setSaving(true);
    const outcome = await saveGpsConfig({
      ...draft,
      port: draft.port.trim(),
      baudRate: Number(draft.baudRate) as GpsConfig['baudRate'],
    }).catch((error: unknown) => ({
      ok: false as const,
      message: `The GPS settings were not saved: ${(error as Error).message}`,
      fieldErrors: {},
    }));
    setSaving(false);
    if (outcome.ok) {
      setDraft(toDraft(outcome.config));
      setFieldErrors({});
      setResult({ kind: 'success', message: 'Saved. The new GPS settings are in use.' });
    } else {
      setFieldErrors(outcome.fieldErrors);
      setResult({ kind: 'error', message: outcome.message });
    }
  };

  const serial = draft?.portType === 'serial';
  return (
    <div className="page">
      <TopBar
        title="GPS Data Source"
        start={
          <Link className="top-bar__button" to={paths.settings}>
            Back
          </Link>
        }
      />
      <div className="page__content gps-source">
        {loadError && <Banner kind="error" message={loadError} />}
        {result && <Banner kind={result.kind} message={result.message} />}
        {draft && (
          <form
            className="gps-source__form"
            aria-label="GPS settings"
            onSubmit={(event) => {
              event.preventDefault();
              void save();
            }}
          >
            <SelectField
              label="Source"
              value={draft.source}
              onChange={change('source')}
              options={[
                ['modem', 'Vehicle modem'],
                ['browser', "This computer's location (browser)"],
              ]}
              error={fieldErrors.source}
            />
            <SelectField
              label="Port type"
              value={draft.portType}
              onChange={change('portType')}
              options={GPS_PORT_TYPES.map((type) => [type, type])}
              error={fieldErrors.portType}
            />
            <TextField
              label={serial ? 'Serial device' : 'Port'}
              value={draft.port}
              onChange={change('port')}
              inputMode={serial ? 'text' : 'numeric'}
              error={fieldErrors.port}
            />
            {serial ? (
              <SelectField
                label="Baud rate"
                value={draft.baudRate}
                onChange={change('baudRate')}
                options={GPS_BAUD_RATES.map((rate) => [String(rate), String(rate)])}
                error={fieldErrors.baudRate}
              />
            ) : (
              <TextField label="Host" value={draft.host} onChange={change('host')} error={fieldErrors.host} />
            )}
            <SelectField
              label="Data format"
              value={draft.dataFormat}
              onChange={change('dataFormat')}
              options={GPS_DATA_FORMATS.map((format) => [format, format])}
              error={fieldErrors.dataFormat}
            />
            <button type="submit" className="button button--primary button--block" disabled={saving}>
              {saving ? 'Saving...' : 'Save'}
            </button>
          </form>
        )}
        <LiveView status={status} connected={connected} />
      </div>
    </div>
  );
}

function SelectField({
  label,
  value,
  onChange,
  options,
  error,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: readonly (readonly [string, string])[];
  error?: string;
}) {
  const id = useId();
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        className={error ? 'field__input field__input--invalid' : 'field__input'}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => onChange(event.target.value)}
      >
        {options.map(([optionValue, optionLabel]) => (
          <option key={optionValue} value={optionValue}>
            {optionLabel}
          </option>
        ))}
      </select>
      {error && (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      )}
    </div>
  );
}

const COUNTERS: [keyof GpsCounters, string][] = [
  ['received', 'Received'],
  ['badChecksum', 'Bad checksum'],
  ['invalid', 'Invalid'],
  ['used', 'Used'],
  ['repeated', 'Repeated'],
  ['ignored', 'Other sentences'],
];

function LiveView({ status, connected }: { status: GpsStatus | null; connected: boolean }) {
  const now = useNow();
  const fix = useDesktopGps((state) => state.fix);
  if (!connected) return <Banner kind="error" message="Not connected to the desktop host's GPS; retrying." />;
  if (!status) return null;
  return (
    <section className="gps-live" aria-label="Live GPS">
      <h2 className="gps-live__title">Live</h2>
      {status.error && <Banner kind="error" message={status.error} />}
      <LiveRow label="Listening on">
        {status.config.source === 'browser' ? 'Nothing: the browser gives the position' : (status.listening ?? '—')}
      </LiveRow>
      <LiveRow label="Last fix">
        {fix ? (
          <span data-testid="gps-last-fix">
            {formatCoordinates(fix.lat, fix.lon)} · {formatAge(fixAgeMs(fix, now))} · {fix.format} {fix.sentence}
            {fix.speedMps !== null && ` · ${(fix.speedMps * 3.6).toFixed(0)} km/h`}
          </span>
        ) : (
          'None yet'
        )}
      </LiveRow>
      <dl className="gps-live__counters">
        {COUNTERS.map(([key, label]) => (
          <div key={key} className="gps-live__counter">
            <dt>{label}</dt>
            <dd data-testid={`gps-counter-${key}`}>{status.counters[key]}</dd>
          </div>
        ))}
      </dl>
      <h3 className="gps-live__subtitle">Last sentences</h3>
      {status.recent.length === 0 ? (
        <p className="gps-live__empty">Nothing received yet.</p>
      ) : (
        <ol className="gps-live__sentences">
          {status.recent.map((sentence, index) => (
            <li key={`${sentence.at}-${index}`} className={`gps-live__sentence gps-live__sentence--${sentence.result}`}>
              <span className="gps-live__result">{RESULT_LABELS[sentence.result]}</span>
              <code>{sentence.text}</code>
              {sentence.reason && <span className="gps-live__reason">{sentence.reason}</span>}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

const RESULT_LABELS: Record<GpsStatus['recent'][number]['result'], string> = {
  used: 'used',
  badChecksum: 'bad checksum',
  invalid: 'invalid',
  repeated: 'repeated',
  ignored: 'other',
  quality: 'fix quality',
};

function LiveRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <p className="gps-live__row">
      <span className="gps-live__label">{label}</span> <span>{children}</span>
    </p>
  );
}
