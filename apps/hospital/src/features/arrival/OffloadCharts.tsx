/**
 * The report's charts, drawn by Chart.js (docs/decisions/0022-arrival-geofence-and-offload-report.md). This module is
 * loaded only when the report page shows (React.lazy), so Chart.js is not in the board's bundle.
 * Only the parts used are registered (tree-shaken).
 */
import { useEffect, useRef } from 'react';
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  type ChartConfiguration,
} from 'chart.js';
import type { OffloadReport } from '@inbound/contract';

Chart.register(
  BarController,
  BarElement,
  CategoryScale,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Legend,
  Tooltip,
);

const COLORS = { arrivals: '#9fb6c8', median: '#0b5f8a', p90: '#a04a00', threshold: '#a4161a', ack: '#1d6b3a' };

function ChartCanvas({ config, label }: { config: ChartConfiguration; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current) return;
    const chart = new Chart(canvas.current, config);
    return () => chart.destroy();
  }, [config]);
  return (
    <div className="report-chart">
      <canvas ref={canvas} role="img" aria-label={label} />
    </div>
  );
}

const minutesAxis = (title: string) => ({
  type: 'linear' as const,
  position: 'left' as const,
  beginAtZero: true,
  title: { display: true, text: title },
});
const countAxis = (title: string) => ({
  type: 'linear' as const,
  position: 'right' as const,
  beginAtZero: true,
  grid: { drawOnChartArea: false },
  title: { display: true, text: title },
});

function offloadConfig(
  labels: string[],
  rows: { arrivals: number; offloadMedian: number | null; offloadP90: number | null }[],
  threshold: number,
  arrivals: number[],
  arrivalsLabel: string,
): ChartConfiguration {
  return {
    type: 'bar',
    data: {
      labels,
      datasets: [
        {
          type: 'line',
          label: 'Offload median (min)',
          data: rows.map((r) => r.offloadMedian),
          borderColor: COLORS.median,
          backgroundColor: COLORS.median,
          yAxisID: 'minutes',
          spanGaps: true,
        },
        {
          type: 'line',
          label: 'Offload p90 (min)',
          data: rows.map((r) => r.offloadP90),
          borderColor: COLORS.p90,
          backgroundColor: COLORS.p90,
          yAxisID: 'minutes',
          spanGaps: true,
        },
        {
          type: 'line',
          label: `Alert threshold (${threshold} min)`,
          data: labels.map(() => threshold),
          borderColor: COLORS.threshold,
          borderDash: [6, 4],
          pointRadius: 0,
          yAxisID: 'minutes',
        },
        { type: 'bar', label: arrivalsLabel, data: arrivals, backgroundColor: COLORS.arrivals, yAxisID: 'count' },
      ],
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      scales: { minutes: minutesAxis('Minutes'), count: countAxis(arrivalsLabel) },
    },
  };
}

export default function OffloadCharts({ report }: { report: OffloadReport }) {
  const byDay = offloadConfig(
    report.byDay.map((d) => d.day.slice(5)),
    report.byDay,
    report.offloadAlertMinutes,
    report.byDay.map((d) => d.arrivals),
    'Arrivals',
  );
  const byHour = offloadConfig(
    report.byHour.map((h) => `${String(h.hour).padStart(2, '0')}:00`),
    report.byHour,
    report.offloadAlertMinutes,
    report.byHour.map((h) => h.arrivalsPerDay),
    'Arrivals per day',
  );
  const notice: ChartConfiguration = {
    type: 'line',
    data: {
      labels: report.byDay.map((d) => d.day.slice(5)),
      datasets: [
        {
          label: 'Notice → arrival, median (min)',
          data: report.byDay.map((d) => d.leadMedian),
          borderColor: COLORS.median,
          backgroundColor: COLORS.median,
          spanGaps: true,
        },
        {
          label: 'Notice → acknowledge, median (min)',
          data: report.byDay.map((d) => d.acknowledgeMedian),
          borderColor: COLORS.ack,
          backgroundColor: COLORS.ack,
          spanGaps: true,
        },
      ],
    },
    options: { responsive: true, maintainAspectRatio: false, animation: false, scales: { y: minutesAxis('Minutes') } },
  };
  return (
    <div className="report-charts">
      <h2>Offload time per day</h2>
      <ChartCanvas config={byDay} label="Offload time median and 90th percentile per day, with arrivals" />
      <h2>By hour of day (arrival hour, {report.tz})</h2>
      <ChartCanvas config={byHour} label="Offload time and arrivals per hour of day" />
      <h2>Pre-notification</h2>
      <ChartCanvas config={notice} label="Notice to arrival lead time and notice to acknowledge, per day" />
    </div>
  );
}
