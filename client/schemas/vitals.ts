import * as v from 'valibot'
import { LANGS } from '../lib/languages'

/**
 * Core Web Vitals from real visits (POST /api/vitals, client/enhance/vitals.ts): the metrics the
 * web-vitals library measures, Google's thresholds for each, and the beacon that carries them.
 */
export const METRICS = ['LCP', 'INP', 'CLS', 'FCP', 'TTFB'] as const
export type MetricName = (typeof METRICS)[number]

/**
 * "Good" up to the first figure, "poor" above the second (web.dev/articles/vitals, as the
 * library's own LCPThresholds etc.). Milliseconds, except CLS, which has no unit.
 */
export const THRESHOLDS: Record<MetricName, readonly [number, number]> = {
  LCP: [2500, 4000],
  INP: [200, 500],
  CLS: [0.1, 0.25],
  FCP: [1800, 3000],
  TTFB: [800, 1800],
}

export const RATINGS = ['good', 'needs-improvement', 'poor'] as const
export type Rating = (typeof RATINGS)[number]

export const ratingOf = (name: MetricName, value: number): Rating =>
  value <= THRESHOLDS[name][0]
    ? 'good'
    : value <= THRESHOLDS[name][1]
      ? 'needs-improvement'
      : 'poor'

/**
 * Above these a value is no measurement (a clock that jumped, a tab left open for a day) and the
 * beacon is refused: ten minutes of a timing, a layout shifted a hundred times over.
 */
export const ABSURD: Record<MetricName, number> = {
  LCP: 600_000,
  INP: 600_000,
  CLS: 100,
  FCP: 600_000,
  TTFB: 600_000,
}

/**
 * What a stored value is clamped to: a minute of waiting, or a CLS of 10, is as poor as it gets,
 * and a few stuck tabs then cannot drag a period's figures about.
 */
export const CLAMP: Record<MetricName, number> = {
  LCP: 60_000,
  INP: 60_000,
  CLS: 10,
  FCP: 60_000,
  TTFB: 60_000,
}

const Measurement = v.pipe(
  v.strictObject({
    name: v.picklist(METRICS),
    value: v.pipe(v.number(), v.finite(), v.minValue(0)),
  }),
  v.check((m) => m.value <= ABSURD[m.name], 'absurd value'),
)

/** One beacon: a visit's metrics, sent once when the page is hidden. */
export const VitalsSchema = v.strictObject({
  /** the page: a path, no query string, or an error page as page views count it */
  path: v.union([
    v.picklist(['(not found)', '(error)']),
    v.pipe(v.string(), v.maxLength(200), v.regex(/^\/[\w\-/.]*$/)),
  ]),
  lang: v.picklist(LANGS),
  // each metric at most once a visit
  metrics: v.pipe(
    v.array(Measurement),
    v.minLength(1),
    v.maxLength(METRICS.length),
    v.check((ms) => new Set(ms.map((m) => m.name)).size === ms.length, 'a metric twice'),
  ),
})

/** Bytes a beacon may have: five metrics and a path are far less. */
export const VITALS_MAX_BYTES = 1024
