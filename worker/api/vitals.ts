import { vValidator } from '@hono/valibot-validator'
import { Hono, type Context } from 'hono'
import { CLAMP, ratingOf, VITALS_MAX_BYTES, VitalsSchema } from '../../client/schemas/vitals'
import { recordVisit, visitOf } from '../analytics/record'
import type { AppEnv } from '../env'
import { limitBody, rateLimit, sameSiteOnly } from '../middleware/form-guard'

/**
 * POST /api/vitals: a visit's Core Web Vitals (client/enhance/vitals.ts), one Analytics Engine
 * data point per metric. The rating is the server's, from the value (schemas/vitals.ts), and the
 * value is clamped: a beacon can say how slow a page was, not how to count it.
 */
export const vitals = new Hono<AppEnv>()

vitals.post(
  '/',
  sameSiteOnly(),
  limitBody(VITALS_MAX_BYTES),
  rateLimit('VITALS_LIMITER'),
  vValidator('json', VitalsSchema, (result, c: Context<AppEnv>) => {
    if (!result.success) return c.json({ error: c.var.t('errors.invalid') }, 400)
  }),
  (c) => {
    const { path, lang, metrics } = c.req.valid('json')
    // the language the page was in (a ?lang= page's differs from the cookie's)
    const visit = { ...visitOf(c), lang }
    const version = c.env.CF_VERSION_METADATA?.id ?? ''
    for (const { name, value } of metrics) {
      const clamped = Math.min(value, CLAMP[name])
      recordVisit(visit, {
        event: 'web_vital',
        path,
        vital: { metric: name, value: clamped, rating: ratingOf(name, clamped), version },
      })
    }
    return c.body(null, 204)
  },
)
