import { dirOf } from '../../../client/lib/languages'
import {
  METRICS,
  RATINGS,
  ratingOf,
  THRESHOLDS,
  type MetricName,
  type Rating,
} from '../../../client/schemas/vitals'
import type { Figures, VitalFigure, VitalsReport, VitalsRow } from '../../analytics/vitals-report'
import {
  formatDay,
  formatNumber,
  formatPercent,
  formatShortDay,
  formatVital,
} from '../../i18n/format'
import { usePage } from '../../render/context'
import { DeskHeader } from './leads'
import { Chart, FigureTable, namer, ReportHead, type Period } from './visits'

/**
 * /desk/speed: real visitors' Core Web Vitals (analytics/vitals-report.ts). Each metric's 75th
 * percentile with its rating and the share of good, needs-improvement and poor visits; a line a
 * metric over the days, so that a deploy that made a page slower shows; then the same figures
 * per page, device class and country, each with the visits it rests on. Drawn on the server, as
 * the visits page: an SVG with a text alternative, then its figures as a table.
 */

// a rating is told by its word and its shape, never by colour alone (WCAG 1.4.1)
const RATING_COLOUR: Record<Rating, string> = {
  good: '#0b7a45',
  'needs-improvement': '#a15c07',
  poor: '#c0262d',
}
const RATING_TEXT: Record<Rating, string> = {
  good: 'text-[#0b7a45]',
  'needs-improvement': 'text-[#a15c07]',
  poor: 'text-[#c0262d]',
}
const RATING_SHAPE: Record<Rating, string> = { good: '●', 'needs-improvement': '▲', poor: '■' }
const BRAND = '#2550d9'
const INK_SOFT = '#334155'
const GRID = '#e2e8f0'

function RatingMark({ rating }: { rating: Rating }) {
  const { t } = usePage()
  return (
    <span className={`font-semibold ${RATING_TEXT[rating]}`}>
      <span aria-hidden="true">{RATING_SHAPE[rating]} </span>
      {t(`desk_speed.ratings.${rating}`)}
    </span>
  )
}

/** A p75 with its rating's shape (the word is in the cell's hidden text), or a dash. */
function Value({ metric, figure }: { metric: MetricName; figure: VitalFigure }) {
  const { t, lang } = usePage()
  if (figure.p75 === null) return <span className="text-ink-600">{t('desk_speed.none')}</span>
  const rating = ratingOf(metric, figure.p75)
  return (
    <span className="whitespace-nowrap">
      <span aria-hidden="true" className={RATING_TEXT[rating]}>
        {RATING_SHAPE[rating]}{' '}
      </span>
      {formatVital(lang, metric, figure.p75)}
      <span className="sr-only"> ({t(`desk_speed.ratings.${rating}`)})</span>
    </span>
  )
}

/** The good / needs improvement / poor shares of a metric's visits, as one bar and as words. */
function Shares({ metric, figure }: { metric: MetricName; figure: VitalFigure }) {
  const { t, lang } = usePage()
  const rtl = dirOf(lang) === 'rtl'
  const parts = RATINGS.map((r) => ({
    rating: r,
    n: r === 'good' ? figure.good : r === 'poor' ? figure.poor : figure.needsImprovement,
  }))
  const total = parts.reduce((n, p) => n + p.n, 0)
  const widths = parts.map((p) => (total ? (p.n / total) * 100 : 0))
  // each part starts where the ones before it end
  const starts = widths.map((_, i) => widths.slice(0, i).reduce((a, b) => a + b, 0))
  return (
    <>
      <svg
        viewBox="0 0 100 8"
        preserveAspectRatio="none"
        className="mt-3 block h-2 w-full"
        aria-hidden="true"
        direction="ltr"
      >
        {parts.map((p, i) => (
          <rect
            key={p.rating}
            x={rtl ? 100 - starts[i] - widths[i] : starts[i]}
            y={0}
            width={widths[i]}
            height={8}
            fill={RATING_COLOUR[p.rating]}
          />
        ))}
      </svg>
      <ul className="m-0 mt-2 list-none space-y-0.5 p-0 text-sm text-ink-700" data-shares={metric}>
        {parts.map((p) => (
          <li key={p.rating}>
            <span aria-hidden="true" className={RATING_TEXT[p.rating]}>
              {RATING_SHAPE[p.rating]}{' '}
            </span>
            {t('desk_speed.share', {
              rating: t(`desk_speed.ratings.${p.rating}`),
              share: formatPercent(lang, total ? p.n / total : 0),
            })}
          </li>
        ))}
      </ul>
    </>
  )
}

/** Site-wide: a card a metric. */
function SiteCards({ site }: { site: Figures }) {
  const { t, lang } = usePage()
  return (
    <section aria-labelledby="speed-site" className="space-y-3">
      <h2 id="speed-site" className="m-0 text-xl font-bold text-ink-900">
        {t('desk_speed.site_title')}
      </h2>
      <ul className="m-0 grid list-none gap-4 p-0 sm:grid-cols-2 lg:grid-cols-5">
        {METRICS.map((m) => {
          const f = site[m]
          return (
            <li key={m} className="card min-w-0" data-metric={m}>
              <h3 className="m-0 text-base font-bold text-ink-900">
                <abbr title={t(`desk_speed.metrics.${m}.name`)} className="no-underline">
                  {m}
                </abbr>{' '}
                <span className="text-sm font-normal text-ink-600">
                  {t(`desk_speed.metrics.${m}.name`)}
                </span>
              </h3>
              <p className="m-0 mt-2 text-3xl font-extrabold text-ink-900" data-p75={f.p75 ?? ''}>
                {f.p75 === null ? t('desk_speed.none') : formatVital(lang, m, f.p75)}
              </p>
              {f.p75 !== null && (
                <p className="m-0 mt-1 text-sm">
                  <RatingMark rating={ratingOf(m, f.p75)} />
                </p>
              )}
              <p className="m-0 mt-1 text-sm text-ink-600" data-visits={f.visits}>
                {t.plural('desk_speed.visits_count', f.visits)}
              </p>
              {f.visits > 0 && <Shares metric={m} figure={f} />}
            </li>
          )
        })}
      </ul>
      <p className="m-0 text-sm text-ink-600">{t('desk_speed.thresholds')}</p>
    </section>
  )
}

/** A metric's p75 a day: the line, the "good" threshold dashed, days without visits left out. */
function TrendChart({ metric, report }: { metric: MetricName; report: VitalsReport }) {
  const { t, lang } = usePage()
  const rtl = dirOf(lang) === 'rtl'
  const [W, H, top, bottom, side] = [400, 170, 16, 30, 8]
  const plotW = W - 2 * side
  const plotH = H - top - bottom
  const days = report.perDay.map((d) => ({ day: d.day, value: d.figures[metric].p75 }))
  const measured = days.filter((d) => d.value !== null) as { day: string; value: number }[]
  const good = THRESHOLDS[metric][0]
  const max = Math.max(good * 1.5, ...measured.map((d) => d.value))
  const xOf = (i: number) => {
    const x = side + (days.length > 1 ? (i / (days.length - 1)) * plotW : plotW / 2)
    return rtl ? W - x : x
  }
  const yOf = (v: number) => top + plotH - (v / max) * plotH
  const points = days
    .map((d, i) => (d.value === null ? null : `${xOf(i).toFixed(1)},${yOf(d.value).toFixed(1)}`))
    .filter(Boolean)
  const name = t(`desk_speed.metrics.${metric}.name`)
  const title = t('desk_speed.trend.title', { metric, name })
  const latest = measured[measured.length - 1]
  const summary = latest
    ? t('desk_speed.trend.summary', {
        title,
        day: formatDay(lang, latest.day),
        value: formatVital(lang, metric, latest.value),
        good: formatVital(lang, metric, good),
      })
    : t('desk_speed.trend.empty', { title })
  const first = days[0]
  const last = days[days.length - 1]
  return (
    <Chart id={`trend-${metric}`} title={title}>
      <svg
        role="img"
        aria-label={summary}
        direction="ltr"
        viewBox={`0 0 ${W} ${H}`}
        className="mt-3 block h-auto w-full"
        data-chart={`trend-${metric}`}
      >
        <title>{summary}</title>
        <line
          x1={side}
          x2={W - side}
          y1={yOf(good)}
          y2={yOf(good)}
          stroke={RATING_COLOUR.good}
          strokeDasharray="5 4"
        />
        <text
          x={rtl ? W - side : side}
          y={yOf(good) - 5}
          textAnchor={rtl ? 'end' : 'start'}
          fontSize={12}
          className="text-[16px] sm:text-[12px]"
          fill={RATING_COLOUR.good}
        >
          {formatVital(lang, metric, good)}
        </text>
        <line x1={side} x2={W - side} y1={top + plotH} y2={top + plotH} stroke={GRID} />
        {points.length > 1 && (
          <polyline
            points={points.join(' ')}
            fill="none"
            stroke={BRAND}
            strokeWidth={2.5}
            strokeLinejoin="round"
          />
        )}
        {days.map((d, i) =>
          d.value === null ? null : (
            <circle key={d.day} cx={xOf(i)} cy={yOf(d.value)} r={3.5} fill={BRAND} data-day={d.day}>
              <title>{`${formatDay(lang, d.day)}: ${formatVital(lang, metric, d.value)}`}</title>
            </circle>
          ),
        )}
        {[first, last].map((d, k) => (
          <text
            key={d.day}
            x={xOf(k ? days.length - 1 : 0)}
            y={H - 8}
            textAnchor={(k === 0) !== rtl ? 'start' : 'end'}
            fontSize={13}
            className="text-[17px] sm:text-[13px]"
            fill={INK_SOFT}
          >
            {formatShortDay(lang, d.day)}
          </text>
        ))}
      </svg>
      <FigureTable
        caption={title}
        head={[t('desk_visits.per_day.day'), t('desk_speed.p75')]}
        rows={measured.map((d) => [formatDay(lang, d.day), formatVital(lang, metric, d.value)])}
      />
    </Chart>
  )
}

/** Per page, device or country: a row a label, a column a metric, visible (no chart). */
function Breakdown({
  id,
  title,
  column,
  rows,
  name = (label) => label,
}: {
  id: string
  title: string
  column: string
  rows: VitalsRow[]
  name?: (label: string) => string
}) {
  const { t, lang } = usePage()
  return (
    <section aria-labelledby={`${id}-title`} className="card min-w-0">
      <h2 id={`${id}-title`} className="m-0 text-xl font-bold text-ink-900">
        {title}
      </h2>
      {!rows.length ? (
        <p className="m-0 mt-4 text-ink-600">{t('desk_visits.no_data')}</p>
      ) : (
        // scrolls sideways on a phone: named and in the tab order, so a keyboard scrolls it;
        // positioned, so that it clips the hidden caption too (an absolute box escapes an
        // unpositioned scroller, and widened the page by the table's width)
        <div
          className="relative mt-4 overflow-x-auto"
          role="group"
          aria-labelledby={`${id}-title`}
          // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- axe: scrollable-region-focusable
          tabIndex={0}
        >
          <table className="w-full border-collapse text-sm" data-table={id}>
            <caption className="sr-only">{title}</caption>
            <thead>
              <tr className="border-b border-slate-200 text-start">
                <th scope="col" className="py-2 pe-3 text-start font-semibold">
                  {column}
                </th>
                <th scope="col" className="py-2 pe-3 text-end font-semibold">
                  {t('desk_speed.visits')}
                </th>
                {METRICS.map((m) => (
                  <th key={m} scope="col" className="py-2 pe-3 text-end font-semibold">
                    <abbr title={t(`desk_speed.metrics.${m}.name`)}>{m}</abbr>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.label} className="border-b border-slate-100" data-row={r.label}>
                  <th
                    scope="row"
                    className="max-w-[16rem] break-words py-2 pe-3 text-start font-normal"
                  >
                    {/* a path reads left to right in Arabic too */}
                    {r.label.startsWith('/') ? <span dir="ltr">{r.label}</span> : name(r.label)}
                  </th>
                  <td className="py-2 pe-3 text-end">{formatNumber(lang, r.visits)}</td>
                  {METRICS.map((m) => (
                    <td key={m} className="py-2 pe-3 text-end" data-metric={m}>
                      <Value metric={m} figure={r.figures[m]} />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}

export function DeskSpeedPage({ report }: { report: VitalsReport }) {
  const { t, lang } = usePage()
  const unknown = t('desk_visits.unknown')
  const country = namer(lang, 'region', unknown)
  const device = (d: string) =>
    d === 'mobile' || d === 'tablet' || d === 'desktop' ? t(`desk_speed.devices.${d}`) : unknown
  const period = t(`desk_visits.periods.${String(report.days) as Period}`, {
    days: formatNumber(lang, report.days),
  })
  const empty = !report.unavailable && METRICS.every((m) => report.site[m].visits === 0)
  return (
    <>
      <DeskHeader title={t('desk_speed.title')} section="/desk/speed" />
      <div className="container space-y-6 pb-16">
        <ReportHead
          base="/desk/speed"
          days={report.days}
          summary={t('desk_speed.summary', {
            period,
            source: t(`desk_visits.sources.${report.source}`),
          })}
          unavailable={report.unavailable}
        />
        {empty ? (
          <p className="card m-0 text-ink-700">{t('desk_speed.empty', { period })}</p>
        ) : (
          !report.unavailable && (
            <>
              <SiteCards site={report.site} />
              <div className="grid gap-6 md:grid-cols-2 xl:grid-cols-3">
                {METRICS.map((m) => (
                  <TrendChart key={m} metric={m} report={report} />
                ))}
              </div>
              <Breakdown
                id="speed-pages"
                title={t('desk_speed.pages')}
                column={t('desk_visits.pages.label')}
                rows={report.pages}
              />
              <div className="grid gap-6">
                <Breakdown
                  id="speed-devices"
                  title={t('desk_speed.devices.title')}
                  column={t('desk_speed.devices.label')}
                  rows={report.devices}
                  name={device}
                />
                <Breakdown
                  id="speed-countries"
                  title={t('desk_visits.countries.title')}
                  column={t('desk_visits.countries.label')}
                  rows={report.countries}
                  name={country}
                />
              </div>
            </>
          )
        )}
      </div>
    </>
  )
}
