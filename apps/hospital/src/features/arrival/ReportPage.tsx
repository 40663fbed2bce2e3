import { lazy, Suspense, useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import type { OffloadReport } from '@inbound/contract';
import { api } from '../../lib/client';
import { downloadCsv } from './csv';
import { arrivalKeys } from './queries';
import './arrival.css';

// Chart.js comes with the charts, after the figures are on screen.
const OffloadCharts = lazy(() => import('./OffloadCharts'));

const localDay = (date: Date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
const fmt = (minutes: number | null) => (minutes === null ? '—' : `${minutes.toFixed(1)} min`);

/** A hospital's offload ("wall time") report: figures, charts, CSV (issue 15 item 3). */
export function ReportPage() {
  const { hospitalId = '' } = useParams();
  const tz = useMemo(() => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC', []);
  const [to, setTo] = useState(() => localDay(new Date()));
  const [from, setFrom] = useState(() => localDay(new Date(Date.now() - 6 * 86_400_000)));
  const report = useQuery({
    queryKey: arrivalKeys.report(hospitalId, from, to, tz),
    queryFn: () => api('offloadReport', { params: { id: hospitalId }, query: { from, to, tz } }),
  });
  return (
    <div className="layout">
      <header className="detail-header">
        <Link to="/" className="back-link">
          ← Inbound board
        </Link>
        <h1>Offload report{report.data ? ` — ${report.data.hospital.name}` : ''}</h1>
      </header>
      <main className="report">
        <form className="report-range" onSubmit={(e) => e.preventDefault()}>
          <label>
            From <input type="date" value={from} max={to} onChange={(e) => e.target.value && setFrom(e.target.value)} />
          </label>
          <label>
            To <input type="date" value={to} min={from} onChange={(e) => e.target.value && setTo(e.target.value)} />
          </label>
          <span className="muted">Days and hours in {tz}.</span>
          <button
            type="button"
            className="button"
            disabled={!report.data}
            onClick={() => report.data && downloadCsv(report.data)}
          >
            Export CSV
          </button>
        </form>
        {report.isPending && <p role="status">Loading the report…</p>}
        {report.isError && (
          <p role="alert" className="banner banner-error">
            {report.error.message}
          </p>
        )}
        {report.data && <ReportBody report={report.data} />}
      </main>
    </div>
  );
}

function ReportBody({ report }: { report: OffloadReport }) {
  const t = report.total;
  const waiting = report.cases.filter((c) => c.handoffAt === null).length;
  return (
    <>
      <dl className="report-figures" data-testid="report-figures">
        <div>
          <dt>Arrivals</dt>
          <dd data-testid="report-arrivals">{t.arrivals}</dd>
        </div>
        <div>
          <dt>Offload median</dt>
          <dd>{fmt(t.offloadMedian)}</dd>
        </div>
        <div>
          <dt>Offload 90th percentile</dt>
          <dd>{fmt(t.offloadP90)}</dd>
        </div>
        <div>
          <dt>Notice → arrival (median)</dt>
          <dd>{fmt(t.leadMedian)}</dd>
        </div>
        <div>
          <dt>Notice → acknowledge (median)</dt>
          <dd>{fmt(t.acknowledgeMedian)}</dd>
        </div>
      </dl>
      <p className="muted">
        Offload time runs from arrival to the ED&apos;s acceptance of the hand-over; alert threshold{' '}
        {report.offloadAlertMinutes} min.{' '}
        {waiting > 0 ? `${waiting} arrived case(s) have no accepted hand-over yet.` : ''}
      </p>
      <Suspense fallback={<p role="status">Loading the charts…</p>}>
        <OffloadCharts report={report} />
      </Suspense>
    </>
  );
}
