import { Hono } from 'hono'
import * as v from 'valibot'
import { askerOf } from '../analytics/report'
import { vitalsReport } from '../analytics/vitals-report'
import type { AppEnv } from '../env'
import { DeskSpeedPage } from './pages/speed'
import { PERIODS } from './pages/visits'

/**
 * /desk/speed: real visitors' Core Web Vitals (analytics/vitals-report.ts). Mounted under
 * /desk, so only staff with a second factor get here (guard.ts).
 */
export const deskSpeed = new Hono<AppEnv>()

/** ?days=7|30|90; anything else is the default month. */
const Query = v.object({ days: v.optional(v.fallback(v.picklist(PERIODS), '30'), '30') })

deskSpeed.get('/', async (c) => {
  const { days } = v.parse(Query, { days: c.req.query('days') })
  const report = await vitalsReport(askerOf(c.env), Number(days))
  const t = c.var.t
  return c.render(<DeskSpeedPage report={report} />, {
    title: `${t('desk_speed.title')} | ${t('meta.title_suffix')}`,
    workspace: true,
    description: t('desk_speed.description'),
  })
})
