import type { Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { record, recordVisit, visitOf } from '../analytics/record'
import { httpOnlyCookie } from '../cookies'
import type { AppEnv } from '../env'
import { consentOf } from '../render/consent'
import { variantOf } from './assign'
import type { Assignment } from './assignments'
import { liveExperiments } from './state'
import type { Conversion } from './targets'
import {
  countedVisitor,
  EXPOSURE_PREFIX,
  newVisitorId,
  serializeExposure,
  VISITOR_COOKIE,
  VISITOR_SECONDS,
  type Counted,
  type Exposure,
} from './visitor'

/**
 * Exposures and conversions go where the site's analytics go (analytics/record.ts: Analytics
 * Engine in production, the D1 copy locally), each once per visitor and experiment: a cookie
 * per experiment remembers it was counted (experiments/visitor.ts).
 */

const keep = (c: Context<AppEnv>, id: number, exposure: Exposure) =>
  setCookie(
    c,
    `${EXPOSURE_PREFIX}${id}`,
    serializeExposure(exposure),
    httpOnlyCookie(c, '/', VISITOR_SECONDS),
  )

/**
 * A new visitor id, with the exposures of any id before it gone: counted under the old id's
 * variants, they would credit a conversion to the new id's.
 */
export function giveVisitorId(c: Context<AppEnv>): Counted {
  const id = newVisitorId()
  setCookie(c, VISITOR_COOKIE, id, httpOnlyCookie(c, '/', VISITOR_SECONDS))
  forgetExposures(c)
  return { id, exposures: new Map() }
}

/** Deletes the exposure cookies the request carries. */
export function forgetExposures(c: Context<AppEnv>) {
  for (const name of Object.keys(getCookie(c)))
    if (name.startsWith(EXPOSURE_PREFIX)) deleteCookie(c, name, httpOnlyCookie(c, '/', 0))
}

/** The page with the tested texts was served: a first exposure to each is counted. */
export function countExposures(
  c: Context<AppEnv>,
  visitor: Counted,
  assignments: readonly Assignment[],
) {
  const now = Date.now()
  for (const a of assignments) {
    if (visitor.exposures.has(a.id)) continue
    const exposure = { at: now, lang: c.var.lang, converted: false }
    visitor.exposures.set(a.id, exposure)
    record(c, {
      event: 'exp_exposure',
      path: c.req.path,
      experiment: { id: a.id, variant: a.variant },
    })
    keep(c, a.id, exposure)
  }
}

/**
 * A conversion the server itself saw happen (a lead stored, a booking made: services/): counted
 * for each running experiment judged by it that the visitor was shown before, in the variant
 * they were shown and the language they saw it in, once.
 */
export async function countConversion(c: Context<AppEnv>, conversion: Conversion) {
  try {
    const { visitor } = countedVisitor(getCookie(c), c.req.header('User-Agent') ?? '', consentOf(c))
    if (!visitor || visitor.exposures.size === 0) return
    const live = await liveExperiments(c.env.DB)
    const now = Date.now()
    for (const experiment of live.running) {
      if (experiment.goal !== conversion && experiment.goal !== 'any_lead') continue
      const exposure = visitor.exposures.get(experiment.id)
      if (!exposure || exposure.converted || exposure.at > now) continue
      exposure.converted = true
      // in the language of the page that exposed them, whatever the form's
      recordVisit(
        { ...visitOf(c), lang: exposure.lang },
        {
          event: 'exp_conversion',
          path: c.req.path,
          experiment: {
            id: experiment.id,
            variant: variantOf(experiment.seed, experiment.splitB, visitor.id),
          },
          props: { goal: conversion },
        },
      )
      keep(c, experiment.id, exposure)
    }
  } catch (err) {
    // a count lost, never the visitor's booking or message
    console.error('experiments: conversion not counted', err)
  }
}
