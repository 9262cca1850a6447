// The program's figures for a range of days, from `GET /admin/api/overview`, with a chart of points issued
// and redeemed per day (axes with their values, a legend, a tooltip on hover and keyboard focus) and the same
// numbers as a table. Until the service computes
// the figures (a 404), the view says so and the rest of the app works.
import { useEffect, useState } from 'preact/hooks';
import { ApiError, get, type Document, type Resource } from './api';
import { ViewHeading } from './Heading';
import { axisTicks, formatDate, formatMoney, formatPoints, issuedTotal, type Overview, percent, rangeOf } from './model';

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
        <Figure label="Liability" value={formatMoney(overview.liability.amount, overview.liability.currency)} />
        <Figure label="Points issued in range" value={formatPoints(issuedTotal(overview))} />
        <Figure label="Points redeemed in range" value={formatPoints(range.redeemed)} />
        <Figure label="Redemption rate" value={percent(overview.redemption_rate)} />
        <Figure label="Repeat purchase rate" value={percent(overview.repeat_purchase_rate)} />
        <Figure label="Member revenue" value={formatMoney(range.member_revenue, overview.liability.currency)} />
        <Figure label="Revenue with a reward" value={formatMoney(range.loyalty_revenue, overview.liability.currency)} />
      </dl>
      <DailyChart daily={overview.daily} />
    </>
  );
}

/**
 * Bars of points issued (above the line) and redeemed (below) per day, with the axes' values, a legend, and
 * the day's figures in a tooltip on hover and on keyboard focus: the chart is one stop of Tab, the arrow keys
 * (and Home, End) move from day to day. The same numbers are in the table below it.
 */
export function DailyChart({ daily }: { daily: Overview['daily'] }) {
  const [active, setActive] = useState<number | null>(null);
  const width = 720;
  const height = 200;
  const left = 56;
  const right = 8;
  const top = 8;
  const bottom = 24;
  const plot = { width: width - left - right, height: height - top - bottom };
  const middle = top + plot.height / 2;
  const ticks = axisTicks(Math.max(0, ...daily.map((day) => Math.max(day.issued, day.redeemed))));
  const scale = ticks[ticks.length - 1]!;
  const half = plot.height / 2;
  const step = plot.width / Math.max(1, daily.length);
  const bar = Math.max(1, step * 0.7);
  const labelled = daily.length <= 1 ? [0] : [0, Math.floor((daily.length - 1) / 2), daily.length - 1];
  const day = active === null ? null : daily[active];
  const first = daily[0]?.date ?? '';
  const last = daily[daily.length - 1]?.date ?? '';
  const move = (index: number) => setActive(Math.max(0, Math.min(daily.length - 1, index)));
  return (
    <figure class="chart">
      <figcaption id="chart-caption">
        Points issued and redeemed per day, {formatDate(first)} to {formatDate(last)}
      </figcaption>
      <ul class="legend" aria-label="Legend">
        <li>
          <span class="swatch issued" aria-hidden="true" />
          Issued (above the line)
        </li>
        <li>
          <span class="swatch redeemed" aria-hidden="true" />
          Redeemed (below the line)
        </li>
      </ul>
      <div class="chart-area">
        <svg
          viewBox={`0 0 ${width} ${height}`}
          role="img"
          tabIndex={0}
          aria-labelledby="chart-caption"
          aria-describedby="chart-help chart-tooltip"
          onKeyDown={(event) => {
            const keys: Record<string, number> = {
              ArrowRight: (active ?? -1) + 1,
              ArrowLeft: (active ?? daily.length) - 1,
              Home: 0,
              End: daily.length - 1,
            };
            if (event.key in keys) {
              event.preventDefault();
              move(keys[event.key]!);
            } else if (event.key === 'Escape') setActive(null);
          }}
          onFocus={() => active === null && move(daily.length - 1)}
          onBlur={() => setActive(null)}
          onMouseLeave={() => setActive(null)}
        >
          {ticks.map((tick) => (
            <g key={`up-${tick}`} class="tick">
              <line x1={left} x2={width - right} y1={middle - (tick / scale) * half} y2={middle - (tick / scale) * half} />
              <text x={left - 6} y={middle - (tick / scale) * half + 4} text-anchor="end">
                {formatPoints(tick)}
              </text>
            </g>
          ))}
          {ticks.slice(1).map((tick) => (
            <g key={`down-${tick}`} class="tick">
              <line x1={left} x2={width - right} y1={middle + (tick / scale) * half} y2={middle + (tick / scale) * half} />
              <text x={left - 6} y={middle + (tick / scale) * half + 4} text-anchor="end">
                {formatPoints(tick)}
              </text>
            </g>
          ))}
          <line x1={left} x2={left} y1={top} y2={top + plot.height} class="axis" />
          <line x1={left} x2={width - right} y1={middle} y2={middle} class="axis" />
          {daily.map((entry, index) => (
            <g key={entry.date} class={index === active ? 'day active' : 'day'} onMouseEnter={() => setActive(index)}>
              <rect class="hit" x={left + index * step} width={step} y={top} height={plot.height} />
              <rect
                class="issued"
                x={left + index * step}
                width={bar}
                y={middle - (entry.issued / scale) * half}
                height={(entry.issued / scale) * half}
              />
              <rect class="redeemed" x={left + index * step} width={bar} y={middle} height={(entry.redeemed / scale) * half} />
            </g>
          ))}
          {labelled.map((index) => (
            <text
              key={`x-${index}`}
              class="x-label"
              x={left + index * step + bar / 2}
              y={height - 6}
              text-anchor={index === 0 ? 'start' : index === daily.length - 1 ? 'end' : 'middle'}
            >
              {daily[index] ? formatDate(daily[index]!.date) : ''}
            </text>
          ))}
        </svg>
        <div
          id="chart-tooltip"
          role="status"
          class={
            day && active !== null
              ? `tooltip ${active < daily.length / 4 ? 'from-start' : active > (daily.length * 3) / 4 ? 'from-end' : ''}`
              : 'tooltip hidden'
          }
          style={day && active !== null ? { left: `${((left + (active + 0.5) * step) / width) * 100}%` } : undefined}
        >
          {day && (
            <>
              <strong>{formatDate(day.date)}</strong>
              <span>Issued: {formatPoints(day.issued)}</span>
              <span>Redeemed: {formatPoints(day.redeemed)}</span>
              <span>Expired: {formatPoints(day.expired)}</span>
              <span>New members: {formatPoints(day.new_members)}</span>
            </>
          )}
        </div>
      </div>
      <p id="chart-help" class="hint">
        Focus the chart and use the arrow keys to read each day; the table below has every day’s numbers.
      </p>
      <div class="table-scroll">
        <table class="chart-table">
          <caption>
            Points per day, {formatDate(first)} to {formatDate(last)}
          </caption>
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
            {daily.map((entry) => (
              <tr key={entry.date}>
                <th scope="row">{formatDate(entry.date)}</th>
                <td>{formatPoints(entry.issued)}</td>
                <td>{formatPoints(entry.redeemed)}</td>
                <td>{formatPoints(entry.expired)}</td>
                <td>{formatPoints(entry.new_members)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
