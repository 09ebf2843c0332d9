import { Hono } from 'hono'
import * as v from 'valibot'
import { visitReport } from '../analytics/report'
import type { AppEnv } from '../env'
import { DeskVisitsPage, PERIODS } from './pages/visits'

/**
 * /desk/visits: visits, top lists and the conversion funnel as charts (analytics/report.ts).
 * Mounted under /desk, so only staff with a second factor get here (guard.ts).
 */
export const deskVisits = new Hono<AppEnv>()

/** ?days=7|30|90; anything else is the default month. */
const Query = v.object({ days: v.optional(v.fallback(v.picklist(PERIODS), '30'), '30') })

deskVisits.get('/', async (c) => {
  const { days } = v.parse(Query, { days: c.req.query('days') })
  const report = await visitReport(c.env, Number(days))
  const t = c.var.t
  return c.render(<DeskVisitsPage report={report} />, {
    title: `${t('desk_visits.title')} | ${t('meta.title_suffix')}`,
    workspace: true,
    description: t('desk_visits.description'),
  })
})
