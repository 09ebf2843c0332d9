import { Hono } from 'hono'
import * as v from 'valibot'
import type { AppEnv } from '../env'
import { formGuard, limitBody, rateLimit, sameSiteOnly } from '../middleware/form-guard'
import {
  askAgain,
  confirmationOutcome,
  linkProblem,
  renderOutcome,
  unsubscribeOutcome,
} from '../components/link-pages'
import { confirmSubscription, unsubscribe } from '../services/consent'
import {
  eraseData,
  exportData,
  jsonDownload,
  openDataLink,
  requestDataLink,
} from '../services/data-rights'
import { formFields, readForm } from './forms'
import { tokenOf, verifyChallenge } from '../challenge/turnstile'

/**
 * The buttons of consent and data rights (their pages are in pages/privacy.tsx): confirm a
 * subscription, unsubscribe, ask for one's data, then download or erase it. Each answers with
 * a page in the visitor's language; a bad or old link is a clear page, never a 500.
 */
export const privacy = new Hono<AppEnv>()

const LINK_FORM_BYTES = 4096
const TokenForm = v.object({ token: v.pipe(v.string(), v.maxLength(2000)) })

/** A confirmation link's button (same-site: it is our page's form). */
privacy.post('/subscribe/confirm', sameSiteOnly(), limitBody(LINK_FORM_BYTES), async (c) => {
  const input = await readForm(c, TokenForm)
  return renderOutcome(c, confirmationOutcome(c, await confirmSubscription(c, input?.token)))
})

/**
 * Unsubscribing: the page's button, or a mail client's RFC 8058 one-click POST to the link of
 * the List-Unsubscribe header (body `List-Unsubscribe=One-Click`, the token in the query). The
 * latter comes from the mail provider's servers, so no same-site rule here: the sealed token is
 * the whole authority, and it can only stop mail.
 */
privacy.post('/unsubscribe', limitBody(LINK_FORM_BYTES), async (c) => {
  const fields = await formFields(c).catch(() => ({}) as Record<string, string>)
  const token = fields.token || c.req.query('token')
  return renderOutcome(c, unsubscribeOutcome(c, await unsubscribe(c, token)))
})

const DataRequest = v.object({
  email: v.pipe(v.string(), v.trim(), v.toLowerCase(), v.email(), v.maxLength(254)),
  action: v.picklist(['export', 'erase']),
})

/**
 * The request form: a link goes to the address, whatever we hold about it, once the post has
 * passed the challenge. Without a token (pressed before the page's scripts came, or without
 * JavaScript) nothing is sent yet: the form comes back with the address and the choice as
 * typed (`error=missing`), and sends itself once the page's scripts run (pages/privacy.tsx);
 * any other refusal comes back the same way, saying why.
 */
privacy.post('/privacy/request', ...formGuard(LINK_FORM_BYTES), async (c) => {
  const fields = await formFields(c)
  const parsed = v.safeParse(DataRequest, fields)
  const t = c.var.t
  // back to the form, which words the error and keeps what was typed
  const back = (error: string) =>
    c.redirect(
      `/privacy/request?${new URLSearchParams({
        error,
        email: fields.email ?? '',
        action: fields.action === 'erase' ? 'erase' : 'export',
      })}`,
      303,
    )
  if (!parsed.success) return back('email')
  const check = await verifyChallenge(c, tokenOf(fields), 'data-request')
  if (!check.ok) return back(check.reason)
  const { email, action } = parsed.output
  let mailed: boolean
  try {
    mailed = await requestDataLink(c, email, action)
  } catch (err) {
    console.error('data request not written', err)
    c.header('Retry-After', '30')
    return renderOutcome(c, {
      status: 503,
      title: t('notices.error_title'),
      text: t('errors.unavailable'),
    })
  }
  return renderOutcome(c, {
    status: 200,
    title: t(mailed ? 'privacy_request.sent_title' : 'privacy_request.not_sent_title'),
    text: t(mailed ? 'privacy_request.sent_text' : 'privacy_request.not_sent_text', { email }),
  })
})

/** A data link's button: the JSON file, or the erasure. */
privacy.post(
  '/privacy/data',
  sameSiteOnly(),
  limitBody(LINK_FORM_BYTES),
  rateLimit('LEAD_LIMITER'),
  async (c) => {
    const input = await readForm(c, TokenForm)
    const link = await openDataLink(c.env, input?.token)
    const t = c.var.t
    if (!link.ok)
      return renderOutcome(
        c,
        linkProblem(c, link.reason, t('privacy_request.expired_text'), askAgain(c)),
      )
    const { a: action, e: email } = link.claims
    if (action === 'export') return jsonDownload(c, await exportData(c.env, email))
    await eraseData(c.env, email, c.executionCtx)
    return renderOutcome(c, {
      status: 200,
      title: t('privacy_request.erased_title'),
      text: t('privacy_request.erased_text', { email }),
    })
  },
)
