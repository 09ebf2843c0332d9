import type { Context } from 'hono'
import { isbot } from 'isbot'
import type { MetricName, Rating } from '../../client/schemas/vitals'
import type { Bindings } from '../bindings'
import type { AppEnv } from '../env'
import { countedPath } from '../routes'

/**
 * One data point in Workers Analytics Engine. The blob and double positions are the dataset's
 * schema (README "Analytics", scripts/stats.mjs reads them back):
 *   index1  event: 'pageview', a conversion name, or 'web_vital'
 *   blob1   path (page path, or template for unknown pages)   blob2 language
 *   blob3   country   blob4 colo   blob5 referrer host   blob6 device: mobile | tablet | desktop
 *   blob7   'bot' | 'human'   blob8 'signed-in' | 'signed-out'   blob9 event properties (JSON)
 *   blob10  web vital: LCP | INP | CLS | FCP | TTFB   blob11 its rating   blob12 deploy version
 *   (exp_exposure, exp_conversion: blob10 the experiment's id, blob11 the variant, A or B)
 *   double1 HTTP status   double2 render time in ms   double3 count (1)   double4 the vital's value
 * Never: cookies, IP addresses, user agents, e-mails or names.
 */
export interface DataPoint {
  event: string
  path: string
  status?: number
  renderMs?: number
  props?: Record<string, string | number | boolean>
  /** a Core Web Vital of the visit (api/vitals.ts) */
  vital?: { metric: MetricName; value: number; rating: Rating; version: string }
  /** An experiment's exposure or conversion (experiments/counting.ts) */
  experiment?: { id: number; variant: 'A' | 'B' }
}

export function deviceClass(userAgent: string): 'mobile' | 'tablet' | 'desktop' {
  if (/iPad|Tablet|Nexus (7|9|10)|SM-T|Kindle|Silk/i.test(userAgent)) return 'tablet'
  if (/Mobi|Android|iPhone|iPod|Opera Mini|IEMobile/i.test(userAgent)) return 'mobile'
  return 'desktop'
}

/** Only the host of the referrer, and none for our own pages. */
export function referrerHost(referrer: string | undefined, ownUrl: string): string {
  if (!referrer) return ''
  try {
    const host = new URL(referrer).hostname
    return host === new URL(ownUrl).hostname ? '' : host
  } catch {
    return ''
  }
}

/**
 * What a data point says of a request: from Hono's context, or from the edge's memory, which
 * answers a cached page before the app (render/edge-memory.ts).
 */
export interface Visit {
  request: Request
  env: Bindings
  lang: string
  signedIn: boolean
  /** The execution context's, when there is one (a unit test calling the app has none). */
  waitUntil?: (promise: Promise<unknown>) => void
}

export function visitOf(c: Context<AppEnv>): Visit {
  let waitUntil: Visit['waitUntil']
  try {
    const ctx = c.executionCtx
    waitUntil = (promise) => ctx.waitUntil(promise)
  } catch {
    // no execution context: the write runs in the background
  }
  return {
    request: c.req.raw,
    env: c.env,
    lang: c.var.lang ?? '',
    signedIn: Boolean(c.var.signedIn),
    waitUntil,
  }
}

export function dataPointOf(visit: Visit, p: DataPoint): AnalyticsEngineDataPoint {
  const { request } = visit
  const cf = (request as Request & { cf?: { country?: string; colo?: string } }).cf
  const ua = request.headers.get('User-Agent') ?? ''
  return {
    indexes: [p.event],
    blobs: [
      // (a path that holds a secret counts as its route)
      countedPath(p.path),
      visit.lang,
      cf?.country ?? '',
      cf?.colo ?? '',
      referrerHost(request.headers.get('Referer') ?? undefined, request.url),
      deviceClass(ua),
      isbot(ua) ? 'bot' : 'human',
      visit.signedIn ? 'signed-in' : 'signed-out',
      p.props ? JSON.stringify(p.props) : '',
      ...(p.vital ? [p.vital.metric, p.vital.rating, p.vital.version] : []),
      ...(p.experiment ? [String(p.experiment.id), p.experiment.variant] : []),
    ],
    doubles: [p.status ?? 200, p.renderMs ?? 0, 1, ...(p.vital ? [p.vital.value] : [])],
  }
}

/** A data point of this request (see recordVisit). */
export const record = (c: Context<AppEnv>, p: DataPoint) => recordVisit(visitOf(c), p)

/**
 * Records a data point without ever delaying or breaking the response: Analytics Engine's
 * write is non-blocking, and a failure is logged, not thrown. In development a copy goes to D1
 * for stats, after the response.
 */
export function recordVisit(visit: Visit, p: DataPoint) {
  let point: AnalyticsEngineDataPoint
  try {
    point = dataPointOf(visit, p)
  } catch (err) {
    console.error('analytics: could not describe the request', err)
    return
  }
  const { env } = visit
  try {
    env.ANALYTICS?.writeDataPoint(point)
  } catch (err) {
    console.error('analytics: write failed', err)
  }
  if (env.ENVIRONMENT !== 'development') return
  // (a D1 that fails at once fails this promise, not the response)
  const mirror = Promise.resolve()
    .then(() =>
      env.DB.prepare('INSERT INTO dev_analytics (index1, blobs, doubles) VALUES (?, ?, ?)')
        .bind(point.indexes![0], JSON.stringify(point.blobs), JSON.stringify(point.doubles))
        .run(),
    )
    .catch((err: unknown) => console.error('analytics: dev mirror failed', err))
  if (visit.waitUntil) visit.waitUntil(mirror)
}
