import type { Context } from 'hono'
import { getCookie, setCookie } from 'hono/cookie'
import { record } from '../analytics/record'
import { httpOnlyCookie } from '../cookies'
import type { AppEnv } from '../env'
import { consentIn, CONSENT_COOKIE } from '../render/consent'
import { variantOf } from './assign'
import type { Assignment } from './assignments'
import { liveExperiments } from './state'
import type { Conversion } from './targets'
import {
  countedVisitor,
  EXPOSURES_COOKIE,
  serializeExposures,
  VISITOR_SECONDS,
  type Counted,
} from './visitor'

/**
 * Exposures and conversions go where the site's analytics go (analytics/record.ts: Analytics
 * Engine in production, the D1 copy locally), each once per visitor and experiment: the
 * `experiments` cookie remembers which were counted (experiments/visitor.ts).
 */

function keepExposures(c: Context<AppEnv>, visitor: Counted) {
  setCookie(
    c,
    EXPOSURES_COOKIE,
    serializeExposures(visitor.exposures),
    httpOnlyCookie(c, '/', VISITOR_SECONDS),
  )
}

/** The page with the tested texts was served: a first exposure to each is counted. */
export function countExposures(
  c: Context<AppEnv>,
  visitor: Counted,
  assignments: readonly Assignment[],
) {
  const now = Date.now()
  let counted = false
  for (const a of assignments) {
    if (visitor.exposures.has(a.id)) continue
    visitor.exposures.set(a.id, { at: now, converted: false })
    record(c, {
      event: 'exp_exposure',
      path: c.req.path,
      experiment: { id: a.id, variant: a.variant },
    })
    counted = true
  }
  if (counted) keepExposures(c, visitor)
}

/**
 * A conversion the server itself saw happen (a lead stored, a booking made: services/): counted
 * for each running experiment judged by it that the visitor was shown before, in the variant
 * they were shown, once.
 */
export async function countConversion(c: Context<AppEnv>, conversion: Conversion) {
  try {
    const { visitor } = countedVisitor(
      getCookie(c),
      c.req.header('User-Agent') ?? '',
      consentIn(getCookie(c, CONSENT_COOKIE)),
    )
    if (!visitor || visitor.exposures.size === 0) return
    const live = await liveExperiments(c.env.DB)
    const now = Date.now()
    let counted = false
    for (const experiment of live.running) {
      if (experiment.goal !== conversion && experiment.goal !== 'any_lead') continue
      const exposure = visitor.exposures.get(experiment.id)
      if (!exposure || exposure.converted || exposure.at > now) continue
      exposure.converted = true
      record(c, {
        event: 'exp_conversion',
        path: c.req.path,
        experiment: {
          id: experiment.id,
          variant: variantOf(experiment.seed, experiment.splitB, visitor.id),
        },
        props: { goal: conversion },
      })
      counted = true
    }
    if (counted) keepExposures(c, visitor)
  } catch (err) {
    // a count lost, never the visitor's booking or message
    console.error('experiments: conversion not counted', err)
  }
}
