import type { Context } from 'hono'
import { isbot } from 'isbot'
import type { AppEnv } from '../env'

/**
 * One data point in Workers Analytics Engine. The blob and double positions are the dataset's
 * schema (README "Analytics", scripts/stats.mjs reads them back):
 *   index1  event: 'pageview' or a conversion name
 *   blob1   path (page path, or template for unknown pages)   blob2 language
 *   blob3   country   blob4 colo   blob5 referrer host   blob6 device: mobile | tablet | desktop
 *   blob7   'bot' | 'human'   blob8 'signed-in' | 'signed-out'   blob9 event properties (JSON)
 *   double1 HTTP status   double2 render time in ms   double3 count (1)
 * Never: cookies, IP addresses, user agents, e-mails or names.
 */
export interface DataPoint {
  event: string
  path: string
  status?: number
  renderMs?: number
  props?: Record<string, string | number | boolean>
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

export function dataPointOf(c: Context<AppEnv>, p: DataPoint): AnalyticsEngineDataPoint {
  const cf = (c.req.raw as Request & { cf?: { country?: string; colo?: string } }).cf
  const ua = c.req.header('User-Agent') ?? ''
  return {
    indexes: [p.event],
    blobs: [
      p.path,
      c.var.lang ?? '',
      cf?.country ?? '',
      cf?.colo ?? '',
      referrerHost(c.req.header('Referer'), c.req.url),
      deviceClass(ua),
      isbot(ua) ? 'bot' : 'human',
      c.var.signedIn ? 'signed-in' : 'signed-out',
      p.props ? JSON.stringify(p.props) : '',
    ],
    doubles: [p.status ?? 200, p.renderMs ?? 0, 1],
  }
}

/**
 * Records a data point without ever delaying or breaking the response: the write happens
 * after it, and a failure is logged, not thrown. In development a copy goes to D1 for stats.
 */
export function record(c: Context<AppEnv>, p: DataPoint) {
  let point: AnalyticsEngineDataPoint
  try {
    point = dataPointOf(c, p)
  } catch (err) {
    console.error('analytics: could not describe the request', err)
    return
  }
  const write = async () => {
    try {
      c.env.ANALYTICS?.writeDataPoint(point)
    } catch (err) {
      console.error('analytics: write failed', err)
    }
    if (c.env.ENVIRONMENT === 'development') {
      await c.env.DB.prepare('INSERT INTO dev_analytics (index1, blobs, doubles) VALUES (?, ?, ?)')
        .bind(point.indexes![0], JSON.stringify(point.blobs), JSON.stringify(point.doubles))
        .run()
        .catch((err: unknown) => console.error('analytics: dev mirror failed', err))
    }
  }
  try {
    c.executionCtx.waitUntil(write())
  } catch {
    // no execution context (a unit test calling the app directly): write in the background
    void write()
  }
}
