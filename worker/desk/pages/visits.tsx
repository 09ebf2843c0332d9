import type { ReactNode } from 'react'
import { dirOf, type Lang } from '../../../client/lib/languages'
import type { Count, VisitReport } from '../../analytics/report'
import { formatDay, formatNumber, formatPercent, formatShortDay } from '../../i18n/format'
import { usePage } from '../../render/context'
import { DeskHeader } from './leads'

/**
 * /desk/visits: the visit report as charts drawn on the server (SVG, no script). Each chart is
 * an image with a summary for assistive technology, followed by a visually hidden table with
 * the same figures. The SVG is laid out left to right; in Arabic it is drawn mirrored.
 */

/** The periods a staff member can pick (desk/visits.tsx accepts these only). */
export const PERIODS = ['7', '30', '90'] as const
export type Period = (typeof PERIODS)[number]

// the site's palette (uno.config.ts): brand-600, -500, -200, ink-900, ink-700, slate-200
const BRAND = '#2550d9'
const BRAND_MID = '#3b6cf6'
const BRAND_SOFT = '#bfd2ff'
const INK = '#0f172a'
const INK_SOFT = '#334155'
const GRID = '#e2e8f0'
const FONT = 13
// SVG text scales with its chart: on a phone the charts shrink, so their words grow (user units)
const AXIS_TEXT = 'text-[16px] sm:text-[13px]'
const LABEL_TEXT = 'text-[18px] sm:text-[14px]'

/** x of a box `w` wide whose start is `x` units from the start side of a `width` wide chart. */
const placeX = (rtl: boolean, width: number, x: number, w = 0) => (rtl ? width - x - w : x)
/**
 * text-anchor of a text that begins at its x and runs towards one side. The SVG is laid out left
 * to right (mirrored by hand in Arabic); no text mixes scripts with figures, so each reads the
 * same whichever direction the browser gives it.
 */
const runs = (towards: 'left' | 'right') => (towards === 'right' ? 'start' : 'end')
const shorten = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s)

const shortDay = formatShortDay

export function Chart({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={`${id}-title`} className="card min-w-0">
      <h2 id={`${id}-title`} className="m-0 text-xl font-bold text-ink-900">
        {title}
      </h2>
      {children}
    </section>
  )
}

/** The hidden text alternative that follows each chart: the same figures as a table. */
export function FigureTable({
  caption,
  head,
  rows,
}: {
  caption: string
  head: string[]
  rows: (string | number)[][]
}) {
  return (
    // hidden by a wrapper: a table is never narrower than its content, so it would widen the page
    <div className="sr-only">
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {head.map((h) => (
              <th key={h} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map(([first, ...rest], i) => (
            <tr key={i}>
              <th scope="row">{first}</th>
              {rest.map((cell, j) => (
                <td key={j}>{cell}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** Visits per day: one column a day, oldest at the start, the highest value on the axis. */
function DayChart({ report }: { report: VisitReport }) {
  const { t, lang } = usePage()
  const rtl = dirOf(lang) === 'rtl'
  const [W, H, top, bottom, side] = [800, 260, 24, 40, 56]
  const plotW = W - side - 24
  const plotH = H - top - bottom
  const days = report.perDay
  const max = Math.max(0, ...days.map((d) => d.visits))
  const total = days.reduce((n, d) => n + d.visits, 0)
  const busiest = days.find((d) => d.visits === max) ?? days[days.length - 1]
  const slot = plotW / days.length
  const barW = Math.max(2, slot * 0.7)
  const step = days.length <= 7 ? 1 : days.length <= 30 ? 7 : 14
  const baseY = top + plotH
  const period = t(`desk_visits.periods.${String(report.days) as Period}`, {
    days: formatNumber(lang, report.days),
  })
  const summary = t('desk_visits.per_day.summary', {
    period,
    total: formatNumber(lang, total),
    day: formatDay(lang, busiest.day),
    max: formatNumber(lang, max),
  })
  return (
    <Chart id="visits-per-day" title={t('desk_visits.per_day.title')}>
      {/* scrolls sideways on a phone: named and in the tab order, so a keyboard scrolls it */}
      <div
        className="mt-4 overflow-x-auto"
        role="group"
        aria-labelledby="visits-per-day-title"
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- axe: scrollable-region-focusable
        tabIndex={0}
      >
        <svg
          role="img"
          aria-label={summary}
          direction="ltr"
          viewBox={`0 0 ${W} ${H}`}
          className="block h-auto w-full min-w-[40rem] max-w-5xl"
          data-chart="per-day"
        >
          <title>{summary}</title>
          {max > 0 && (
            <>
              <line
                x1={placeX(rtl, W, side - 6)}
                x2={placeX(rtl, W, side + plotW)}
                y1={top}
                y2={top}
                stroke={GRID}
                strokeDasharray="4 4"
              />
              <text
                x={placeX(rtl, W, side - 10)}
                y={top + 4}
                textAnchor={runs(rtl ? 'right' : 'left')}
                fontSize={FONT}
                className={AXIS_TEXT}
                fontWeight={600}
                fill={INK}
              >
                {formatNumber(lang, max)}
              </text>
            </>
          )}
          <text
            x={placeX(rtl, W, side - 10)}
            y={baseY + 4}
            textAnchor={runs(rtl ? 'right' : 'left')}
            fontSize={FONT}
            className={AXIS_TEXT}
            fill={INK_SOFT}
          >
            {formatNumber(lang, 0)}
          </text>
          {days.map((d, i) => {
            const h = max ? Math.max(d.visits ? 1 : 0, (d.visits / max) * plotH) : 0
            const x = side + i * slot + (slot - barW) / 2
            return (
              <rect
                key={d.day}
                data-day={d.day}
                x={placeX(rtl, W, x, barW)}
                y={baseY - h}
                width={barW}
                height={h}
                rx={Math.min(3, barW / 3)}
                fill={d.visits === max && max > 0 ? BRAND : BRAND_MID}
              >
                <title>{`${formatDay(lang, d.day)}: ${formatNumber(lang, d.visits)}`}</title>
              </rect>
            )
          })}
          <line
            x1={placeX(rtl, W, side)}
            x2={placeX(rtl, W, side + plotW)}
            y1={baseY}
            y2={baseY}
            stroke={INK_SOFT}
          />
          {days.map((d, i) =>
            (days.length - 1 - i) % step === 0 ? (
              <text
                key={d.day}
                x={placeX(rtl, W, side + i * slot + slot / 2)}
                y={baseY + 22}
                textAnchor="middle"
                fontSize={FONT}
                className={AXIS_TEXT}
                fill={INK_SOFT}
              >
                {shortDay(lang, d.day)}
              </text>
            ) : null,
          )}
        </svg>
      </div>
      <FigureTable
        caption={t('desk_visits.per_day.title')}
        head={[t('desk_visits.per_day.day'), t('desk_visits.visits')]}
        rows={days.map((d) => [formatDay(lang, d.day), formatNumber(lang, d.visits)])}
      />
    </Chart>
  )
}

/** A top list as horizontal bars: the name above its bar, the count at the bar's end. */
function BarChart({
  id,
  title,
  column,
  items,
}: {
  id: string
  title: string
  column: string
  items: { label: string; count: number }[]
}) {
  const { t, lang } = usePage()
  const rtl = dirOf(lang) === 'rtl'
  if (!items.length)
    return (
      <Chart id={id} title={title}>
        <p className="m-0 mt-4 text-ink-600">{t('desk_visits.no_data')}</p>
      </Chart>
    )
  const [W, row, barH, countRoom] = [400, 46, 14, 72]
  const max = Math.max(...items.map((i) => i.count))
  const list = new Intl.ListFormat(lang, { type: 'unit', style: 'short' }).format(
    items.map((i) => `${i.label} ${formatNumber(lang, i.count)}`),
  )
  const summary = t('desk_visits.list_summary', { title, list })
  return (
    <Chart id={id} title={title}>
      <svg
        role="img"
        aria-label={summary}
        direction="ltr"
        viewBox={`0 0 ${W} ${items.length * row}`}
        className="mt-4 block h-auto w-full"
        data-chart={id}
      >
        <title>{summary}</title>
        {items.map((item, i) => {
          const y = i * row
          const w = max ? Math.max(2, (item.count / max) * (W - countRoom)) : 2
          return (
            <g key={i}>
              <text
                x={placeX(rtl, W, 0)}
                y={y + 16}
                textAnchor={runs(rtl ? 'left' : 'right')}
                fontSize={14}
                className={LABEL_TEXT}
                fill={INK}
              >
                {shorten(item.label, 48)}
              </text>
              <rect
                x={placeX(rtl, W, 0, w)}
                y={y + 23}
                width={w}
                height={barH}
                rx={3}
                fill={i === 0 ? BRAND : BRAND_MID}
              />
              <text
                x={placeX(rtl, W, w + 6)}
                y={y + 35}
                textAnchor={runs(rtl ? 'left' : 'right')}
                fontSize={14}
                className={LABEL_TEXT}
                fontWeight={600}
                fill={INK_SOFT}
              >
                {formatNumber(lang, item.count)}
              </text>
            </g>
          )
        })}
      </svg>
      <FigureTable
        caption={title}
        head={[column, t('desk_visits.visits')]}
        rows={items.map((i) => [i.label, formatNumber(lang, i.count)])}
      />
    </Chart>
  )
}

/** Page view → booking form opened → lead: centred bars, each with its share of page views. */
function Funnel({ funnel }: { funnel: VisitReport['funnel'] }) {
  const { t, lang } = usePage()
  const rtl = dirOf(lang) === 'rtl'
  const share = (n: number) => formatPercent(lang, funnel.views ? n / funnel.views : 0)
  const steps = [
    { key: 'views', label: t('desk_visits.funnel.views'), count: funnel.views },
    { key: 'forms', label: t('desk_visits.funnel.forms_opened'), count: funnel.formsOpened },
    { key: 'leads', label: t('desk_visits.funnel.leads'), count: funnel.leads },
  ]
  const summary = t('desk_visits.funnel.summary', {
    views: t.plural('desk_visits.funnel.views_count', funnel.views),
    forms: t.plural('desk_visits.funnel.forms_count', funnel.formsOpened),
    forms_share: share(funnel.formsOpened),
    leads: t.plural('desk_visits.funnel.leads_count', funnel.leads),
    leads_share: share(funnel.leads),
  })
  const [W, row, barH] = [400, 64, 26]
  const max = Math.max(1, ...steps.map((s) => s.count))
  return (
    <Chart id="funnel" title={t('desk_visits.funnel.title')}>
      <svg
        role="img"
        aria-label={summary}
        direction="ltr"
        viewBox={`0 0 ${W} ${steps.length * row}`}
        className="mt-4 block h-auto w-full max-w-lg"
        data-chart="funnel"
      >
        <title>{summary}</title>
        {steps.map((s, i) => {
          const w = Math.max(2, (s.count / max) * W)
          return (
            <g key={s.key}>
              {/* the step's name at the start, its figures at the end, its bar centred below */}
              <text
                x={placeX(rtl, W, 0)}
                y={i * row + 16}
                textAnchor={runs(rtl ? 'left' : 'right')}
                fontSize={14}
                className={LABEL_TEXT}
                fill={INK}
              >
                {s.label}
              </text>
              <text
                x={placeX(rtl, W, W)}
                y={i * row + 16}
                textAnchor={runs(rtl ? 'right' : 'left')}
                fontSize={14}
                className={LABEL_TEXT}
                fontWeight={600}
                fill={INK}
              >
                {i
                  ? `${formatNumber(lang, s.count)} · ${share(s.count)}`
                  : formatNumber(lang, s.count)}
              </text>
              <rect
                x={(W - w) / 2}
                y={i * row + 24}
                width={w}
                height={barH}
                rx={4}
                fill={[BRAND, BRAND_MID, BRAND_SOFT][i]}
                stroke={i === 2 ? BRAND : 'none'}
              />
            </g>
          )
        })}
      </svg>
      <FigureTable
        caption={t('desk_visits.funnel.title')}
        head={[
          t('desk_visits.funnel.step'),
          t('desk_visits.funnel.count'),
          t('desk_visits.funnel.share'),
        ]}
        rows={steps.map((s) => [s.label, formatNumber(lang, s.count), share(s.count)])}
      />
      <p className="m-0 mt-4 text-sm text-ink-600">{t('desk_visits.funnel.note')}</p>
    </Chart>
  )
}

/** Names for codes in the page's language: "fr" → "French", "GB" → "United Kingdom". */
export function namer(lang: Lang, type: 'language' | 'region', unknown: string) {
  const names = new Intl.DisplayNames(lang, { type, fallback: 'code' })
  return (code: string) => {
    if (!code) return unknown
    try {
      return names.of(code) ?? code
    } catch {
      return code
    }
  }
}

/**
 * A report page's head: what it shows and from where, the periods, and the SQL API's silence
 * when it did not answer.
 */
export function ReportHead({
  base,
  days,
  summary,
  unavailable,
}: {
  base: string
  days: number
  summary: string
  unavailable: boolean
}) {
  const { t } = usePage()
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="m-0 max-w-3xl text-sm text-ink-600">{summary}</p>
        <PeriodNav base={base} days={days} />
      </div>
      {unavailable && (
        <p role="status" className="m-0 rounded-lg bg-amber-50 p-4 text-amber-900">
          {t('desk_visits.unavailable')}
        </p>
      )}
    </>
  )
}

/** 7, 30 or 90 days: links to the same page with ?days=, the current one marked. */
function PeriodNav({ base, days }: { base: string; days: number }) {
  const { t, lang } = usePage()
  return (
    <nav aria-label={t('desk_visits.period')}>
      <ul className="m-0 flex list-none gap-2 p-0">
        {PERIODS.map((p) => (
          <li key={p}>
            <a
              href={`${base}?days=${p}`}
              aria-current={p === String(days) ? 'page' : undefined}
              className="block rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-semibold text-ink-700 no-underline hover:bg-slate-50 aria-[current=page]:border-ink-900 aria-[current=page]:bg-ink-900 aria-[current=page]:text-white"
            >
              {t(`desk_visits.periods.${p}`, { days: formatNumber(lang, Number(p)) })}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  )
}

export function DeskVisitsPage({ report }: { report: VisitReport }) {
  const { t, lang } = usePage()
  const unknown = t('desk_visits.unknown')
  const languageName = namer(lang, 'language', unknown)
  const countryName = namer(lang, 'region', unknown)
  const named = (items: Count[], name: (label: string) => string) =>
    items.map((i) => ({ label: name(i.label), count: i.count }))
  const period = (p: string) =>
    t(`desk_visits.periods.${p as Period}`, { days: formatNumber(lang, Number(p)) })
  const { funnel } = report
  const empty = !report.unavailable && !funnel.views && !funnel.formsOpened && !funnel.leads
  return (
    <>
      <DeskHeader title={t('desk_visits.title')} section="/desk/visits" />
      <div className="container space-y-6 pb-16">
        <ReportHead
          base="/desk/visits"
          days={report.days}
          summary={t('desk_visits.summary', {
            period: period(String(report.days)),
            source: t(`desk_visits.sources.${report.source}`),
          })}
          unavailable={report.unavailable}
        />
        {empty ? (
          <p className="card m-0 text-ink-700">
            {t('desk_visits.empty', { period: period(String(report.days)) })}
          </p>
        ) : (
          !report.unavailable && (
            <>
              <DayChart report={report} />
              <Funnel funnel={funnel} />
              <div className="grid gap-6 lg:grid-cols-2">
                <BarChart
                  id="pages"
                  title={t('desk_visits.pages.title')}
                  column={t('desk_visits.pages.label')}
                  items={report.pages}
                />
                <BarChart
                  id="languages"
                  title={t('desk_visits.languages.title')}
                  column={t('desk_visits.languages.label')}
                  items={named(report.languages, languageName)}
                />
                <BarChart
                  id="countries"
                  title={t('desk_visits.countries.title')}
                  column={t('desk_visits.countries.label')}
                  items={named(report.countries, countryName)}
                />
                <BarChart
                  id="referrers"
                  title={t('desk_visits.referrers.title')}
                  column={t('desk_visits.referrers.label')}
                  items={named(report.referrers, (host) => host || t('desk_visits.direct'))}
                />
              </div>
            </>
          )
        )}
      </div>
    </>
  )
}
