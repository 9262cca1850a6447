// The program's figures for a range of days, from `GET /admin/api/overview`, with a chart of points issued
// and redeemed per day (and the same numbers as a table for screen readers). Until the service computes
// the figures (a 404), the view says so and the rest of the app works.
import { useEffect, useState } from 'preact/hooks';
import { ApiError, get, type Document, type Resource } from './api';
import { ViewHeading } from './Heading';
import { formatPoints, issuedTotal, type Overview, percent, rangeOf } from './model';

type State = { kind: 'loading' } | { kind: 'missing' } | { kind: 'failed'; message: string } | { kind: 'ready'; overview: Overview };

const RANGES = [30, 90, 366] as const;

export function OverviewView() {
  const [days, setDays] = useState<number>(30);
  const [state, setState] = useState<State>({ kind: 'loading' });
  useEffect(() => {
    let live = true;
    const { from, to } = rangeOf(days, new Date());
    setState({ kind: 'loading' });
    get<Document<Resource<Overview>>>(`/overview?from=${from}&to=${to}`).then(
      (document) => live && setState({ kind: 'ready', overview: document.data.attributes }),
      (error: unknown) => {
        if (!live) return;
        if (error instanceof ApiError && error.status === 404) setState({ kind: 'missing' });
        else setState({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
      },
    );
    return () => {
      live = false;
    };
  }, [days]);
  return (
    <section aria-labelledby="overview-title">
      <ViewHeading>
        <span id="overview-title">Overview</span>
      </ViewHeading>
      <div class="field inline">
        <label for="range">Range</label>
        <select id="range" value={String(days)} onChange={(event) => setDays(Number((event.target as HTMLSelectElement).value))}>
          {RANGES.map((range) => (
            <option key={range} value={String(range)}>
              Last {range} days
            </option>
          ))}
        </select>
      </div>
      <div role="status" aria-live="polite" class="status">
        {state.kind === 'loading' && 'Loading the figures…'}
        {state.kind === 'missing' && 'Figures not available yet: the service does not compute the program’s figures.'}
      </div>
      {state.kind === 'failed' && (
        <p role="alert" class="error">
          The figures could not be loaded: {state.message}
        </p>
      )}
      {state.kind === 'ready' && <Figures overview={state.overview} />}
    </section>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div class="figure">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

export function Figures({ overview }: { overview: Overview }) {
  const range = overview.in_range;
  return (
    <>
      <dl class="figures">
        <Figure label="Members" value={`${formatPoints(overview.members.total)} (${formatPoints(overview.members.new)} new)`} />
        <Figure label="Points outstanding" value={formatPoints(overview.points_outstanding)} />
        <Figure label="Points pending" value={formatPoints(overview.points_pending)} />
        <Figure label="Liability" value={`${overview.liability.amount} ${overview.liability.currency}`} />
        <Figure label="Points issued in range" value={formatPoints(issuedTotal(overview))} />
        <Figure label="Points redeemed in range" value={formatPoints(range.redeemed)} />
        <Figure label="Redemption rate" value={percent(overview.redemption_rate)} />
        <Figure label="Repeat purchase rate" value={percent(overview.repeat_purchase_rate)} />
        <Figure label="Member revenue" value={`${range.member_revenue} ${overview.liability.currency}`} />
        <Figure label="Revenue with a reward" value={`${range.loyalty_revenue} ${overview.liability.currency}`} />
      </dl>
      <DailyChart daily={overview.daily} />
    </>
  );
}

/** Bars of points issued (above) and redeemed (below) per day, scaled to the range's largest day. */
export function DailyChart({ daily }: { daily: Overview['daily'] }) {
  const width = 720;
  const height = 160;
  const middle = height / 2;
  const peak = Math.max(1, ...daily.map((day) => Math.max(day.issued, day.redeemed)));
  const step = width / Math.max(1, daily.length);
  const bar = Math.max(1, step * 0.7);
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby="chart-caption" preserveAspectRatio="none">
        <line x1="0" x2={width} y1={middle} y2={middle} class="axis" />
        {daily.map((day, index) => (
          <g key={day.date}>
            <rect
              class="issued"
              x={index * step}
              width={bar}
              y={middle - (day.issued / peak) * middle}
              height={(day.issued / peak) * middle}
            />
            <rect class="redeemed" x={index * step} width={bar} y={middle} height={(day.redeemed / peak) * middle} />
          </g>
        ))}
      </svg>
      <figcaption id="chart-caption">
        Points issued (above the line) and redeemed (below) per day, {daily[0]?.date ?? ''} to {daily[daily.length - 1]?.date ?? ''}
      </figcaption>
      <details>
        <summary>The chart’s numbers</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Issued</th>
              <th scope="col">Redeemed</th>
              <th scope="col">Expired</th>
              <th scope="col">New members</th>
            </tr>
          </thead>
          <tbody>
            {daily.map((day) => (
              <tr key={day.date}>
                <th scope="row">{day.date}</th>
                <td>{formatPoints(day.issued)}</td>
                <td>{formatPoints(day.redeemed)}</td>
                <td>{formatPoints(day.expired)}</td>
                <td>{formatPoints(day.new_members)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
