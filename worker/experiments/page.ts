import type { MiddlewareHandler } from 'hono'
import type { Lang } from '../../client/lib/languages'
import type { AppEnv } from '../env'
import { withTexts } from '../i18n/translator'
import { getCookie } from 'hono/cookie'
import { isRefreshRequest } from '../render/cache-key'
import { consentOf } from '../render/consent'
import { assignmentsFor, textsFor, variantKey } from './assignments'
import { countExposures, giveVisitorId } from './counting'
import { knownLive, liveExperiments } from './state'
import { TARGET_PATHS } from './targets'
import { countedVisitor } from './visitor'

/**
 * The experiments on a page (docs/experiments.md), decided on the server before it renders: the
 * visitor's variant of each is in the HTML, and the page's copies in the edge's cache are kept
 * per variant set, so nothing is swapped or hidden in the browser. A visitor who accepted
 * analytics gets an id (90 days) and is counted; everyone else, and every crawler, gets A.
 */
export function experimentsOnPage(): MiddlewareHandler<AppEnv> {
  return async function experimentsOnPage(c, next) {
    if (c.req.method !== 'GET' || !TARGET_PATHS.has(c.req.path)) return next()
    const live = await liveExperiments(c.env.DB)
    const counted = countedVisitor(getCookie(c), c.req.header('User-Agent') ?? '', consentOf(c))
    // the edge re-rendering a stale copy (render/edge-cache.ts) with the cookies of the visit
    // that found it stale: the same page, but nobody's visit, so nothing counted or given
    const refresh = isRefreshRequest(c.req.raw)
    let visitor = counted.visitor
    // consent given, no id yet (or one that expired): theirs from this page on
    if (counted.wantsId && !refresh) visitor = giveVisitorId(c)
    const assignments = assignmentsFor(c.req.path, c.var.lang, live, visitor)
    const texts = textsFor(c.req.path, c.var.lang, live, assignments)
    if (Object.keys(texts).length) c.set('t', withTexts(c.var.t, texts))
    c.set('variants', variantKey(assignments))
    c.set('experimentsRun', assignments.length > 0)
    await next()
    const html = (c.res.headers.get('Content-Type') ?? '').startsWith('text/html')
    if (visitor && !refresh && assignments.length && c.res.status === 200 && html)
      countExposures(c, visitor, assignments)
  }
}

/**
 * The variant key of a request the isolate's memory would answer (render/edge-memory.ts), or
 * undefined when the app must: the experiments not known as of now, a visitor still to be
 * given an id, or an exposure still to be counted (both set a cookie).
 */
export function variantsFromMemory(
  request: Request,
  path: string,
  lang: Lang,
  cookies: Record<string, string>,
  consent: string,
): string | undefined {
  if (!TARGET_PATHS.has(path)) return ''
  const live = knownLive()
  if (!live) return undefined
  if (consent !== 'granted' || live.running.length === 0) return ''
  const { visitor, wantsId } = countedVisitor(
    cookies,
    request.headers.get('User-Agent') ?? '',
    consent,
  )
  if (wantsId) return undefined
  const assignments = assignmentsFor(path, lang, live, visitor)
  if (visitor && assignments.some((a) => !visitor.exposures.has(a.id))) return undefined
  return variantKey(assignments)
}
