import { Hono } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import * as v from 'valibot'
import { httpOnlyCookie } from '../cookies'
import { forgetExposures, giveVisitorId } from '../experiments/counting'
import { VISITOR_COOKIE } from '../experiments/visitor'
import type { AppEnv } from '../env'
import { CONSENT_COOKIE } from '../render/consent'
import { limitBody, sameSiteOnly } from '../middleware/form-guard'
import { formFields } from './forms'

const SIX_MONTHS = 60 * 60 * 24 * 183

const ChoiceSchema = v.strictObject({ choice: v.picklist(['granted', 'denied']) })

/**
 * POST /api/consent: the visitor's answer to the tracker question, kept six months in a cookie
 * the page reads on the server (the trackers load only when it says "granted"). JSON from the
 * banner's script; a plain form post without JavaScript goes back to the page it came from.
 */
export const consent = new Hono<AppEnv>()

consent.post('/', sameSiteOnly(), limitBody(1024), async (c) => {
  const type = c.req.header('Content-Type') ?? ''
  let body: unknown = null
  try {
    body = type.startsWith('application/json') ? await c.req.json() : await formFields(c)
  } catch {
    // refused below
  }
  const parsed = v.safeParse(ChoiceSchema, body)
  if (!parsed.success) return c.json({ error: c.var.t('errors.invalid') }, 400)
  setCookie(c, CONSENT_COOKIE, parsed.output.choice, httpOnlyCookie(c, '/', SIX_MONTHS))
  // the experiments' visitor id comes with consent and goes with it (experiments/visitor.ts)
  if (parsed.output.choice === 'granted') {
    if (!getCookie(c, VISITOR_COOKIE)) giveVisitorId(c)
  } else {
    if (getCookie(c, VISITOR_COOKIE)) deleteCookie(c, VISITOR_COOKIE, httpOnlyCookie(c, '/', 0))
    forgetExposures(c)
  }
  if (type.startsWith('application/json')) return c.body(null, 204)
  const back = new URL(c.req.header('Referer') ?? '/', c.req.url)
  return c.redirect(
    back.origin === new URL(c.req.url).origin ? back.pathname + back.search : '/',
    303,
  )
})
