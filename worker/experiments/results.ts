import type { Asker } from '../analytics/vitals-report'
import type { Arm } from './stats'

/**
 * An experiment's counts per variant, overall and per language, for the desk's results page and
 * `npm run stats`: the exposures (visitors) and conversions the engine records as data points
 * (analytics/record.ts: index1 'exp_exposure' | 'exp_conversion', blob2 the language, blob7
 * 'bot' | 'human', blob10 the experiment's id, blob11 the variant). The engine writes each once
 * per visitor and experiment, so a count of points is a count of visitors: on Analytics Engine
 * the sum of their sample intervals, on the development copy in D1 the number of rows.
 * Crawlers never count. No Worker API is used: scripts/stats.mjs runs this module in Node too.
 */

export type ArmCounts = Arm & { byLang: Record<string, Arm> }

export interface ExperimentCounts {
  A: ArmCounts
  B: ArmCounts
  /** the store did not answer: every figure is zero, and the page says so */
  unavailable: boolean
}

const DATASET = 'growth_agency_events'

/** One query, its rows (point, variant, language, count), in the store's dialect. */
function countsSql(store: Asker['store'], experimentId: number, sinceMs: number) {
  const points = "(index1 = 'exp_exposure' OR index1 = 'exp_conversion')"
  if (store === 'analytics-engine')
    return (
      'SELECT index1 AS event, blob11 AS variant, blob2 AS lang, SUM(_sample_interval) AS n ' +
      `FROM ${DATASET} WHERE ${points} AND blob10 = '${experimentId}' AND blob7 != 'bot' ` +
      `AND toUInt32(timestamp) >= ${Math.floor(sinceMs / 1000)} ` +
      'GROUP BY event, variant, lang FORMAT JSON'
    )
  const blob = (n: number) => `json_extract(blobs, '$[${n - 1}]')`
  return (
    `SELECT index1 AS event, ${blob(11)} AS variant, ${blob(2)} AS lang, COUNT(*) AS n ` +
    `FROM dev_analytics WHERE ${points} AND ${blob(10)} = '${experimentId}' ` +
    `AND ${blob(7)} != 'bot' AND created_at >= '${new Date(sinceMs).toISOString()}' ` +
    'GROUP BY event, variant, lang'
  )
}

const emptyArm = (): ArmCounts => ({ visitors: 0, conversions: 0, byLang: {} })

/** The counts of experiment `experimentId` since `sinceMs` (its start). */
export async function experimentCounts(
  ask: Asker,
  experimentId: number,
  sinceMs: number,
): Promise<ExperimentCounts> {
  // (written into the SQL: a whole number only)
  if (!Number.isSafeInteger(experimentId)) throw new RangeError(`experiment id ${experimentId}`)
  const counts = { A: emptyArm(), B: emptyArm(), unavailable: false }
  let rows: Record<string, unknown>[]
  try {
    rows = await ask.query(countsSql(ask.store, experimentId, sinceMs))
  } catch (err) {
    console.error('experiments: the counts could not be read', err)
    return { ...counts, unavailable: true }
  }
  for (const r of rows) {
    const variant = r.variant === 'A' || r.variant === 'B' ? r.variant : null
    const field =
      r.event === 'exp_exposure' ? 'visitors' : r.event === 'exp_conversion' ? 'conversions' : null
    if (!variant || !field) continue
    const n = Math.round(Number(r.n) || 0)
    const lang = String(r.lang ?? '')
    const arm = counts[variant]
    arm[field] += n
    arm.byLang[lang] ??= { visitors: 0, conversions: 0 }
    arm.byLang[lang][field] += n
  }
  return counts
}
