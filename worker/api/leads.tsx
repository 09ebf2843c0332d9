import { Hono } from 'hono'
import {
  ContactSchema,
  EmailSignupSchema,
  GuideRequestSchema,
  NewsletterSchema,
} from '../../client/schemas/leads'
import { findService } from '../data/services'
import type { AppEnv } from '../env'
import { formGuard } from '../middleware/form-guard'
import { requestGuide, sendContactMessage, subscribe } from '../services/leads'
import { guideUrl } from '../data/guides'
import { formResult } from '../components/form-result'
import { isBot, parse, store } from './forms'
import { checkForm } from './challenge'

/**
 * The lead endpoints (SPEC §7 and its siblings). Islands post JSON and get JSON; the same
 * forms posted without JavaScript (urlencoded) get a page saying what happened.
 */
export const leads = new Hono<AppEnv>()

// Each lead route carries its own guard: a `use()` here would also run on every other /api route.
const guard = formGuard()

leads.post('/email-signup', ...guard, async (c) => {
  const parsed = await parse(c, EmailSignupSchema, { formAllowed: false })
  if (!parsed.ok) return parsed.res
  const { name, email, source } = parsed.data
  // Bots get the answer a person would, and nothing is stored.
  if (isBot(parsed.data)) return c.json({ alreadySubscribed: false, mailed: true })
  // only an island posts here, and it always sends a token
  const check = await checkForm(c, 'json', parsed.data, 'welcome-popup')
  if (!check.ok) return check.res
  // The popup promises the starter guide by e-mail: a new subscriber gets it (services/leads.ts).
  const saved = await store(c, 'json', () =>
    subscribe(c, { email, name, source, form: 'welcome_popup', language: c.var.lang }, true),
  )
  if (!saved.ok) return saved.res
  return c.json(saved.value)
})

leads.post('/newsletter', ...guard, async (c) => {
  const parsed = await parse(c, NewsletterSchema, { formAllowed: true })
  if (!parsed.ok) return parsed.res
  const { mode, data } = parsed
  let result = { alreadySubscribed: false, mailed: true }
  let checked = true
  if (!isBot(data)) {
    const check = await checkForm(c, mode, data, 'newsletter')
    if (!check.ok) return check.res
    checked = check.checked
    const saved = await store(c, mode, () =>
      subscribe(
        c,
        {
          email: data.email,
          name: null,
          source: 'website',
          form: 'newsletter',
          language: c.var.lang,
        },
        checked,
      ),
    )
    if (!saved.ok) return saved.res
    result = saved.value
  }
  if (mode === 'json') return c.json(result)
  const t = c.var.t
  // without JavaScript: a new address is kept, one the list holds is left as it is, nothing is
  // e-mailed; the answer is the same whatever the address, so it tells nobody who is listed
  if (!checked)
    return formResult(
      c,
      200,
      t('notices.newsletter_unchecked_title'),
      t('notices.newsletter_unchecked_text'),
    )
  if (!result.alreadySubscribed && !result.mailed)
    return formResult(c, 200, t('notices.newsletter_title'), t('notices.mail_not_sent'))
  return result.alreadySubscribed
    ? formResult(
        c,
        200,
        t('notices.newsletter_already_title'),
        t('notices.newsletter_already_text'),
      )
    : formResult(c, 200, t('notices.newsletter_title'), t('notices.newsletter_text'))
})

leads.post('/guide-requests', ...guard, async (c) => {
  const parsed = await parse(c, GuideRequestSchema, { formAllowed: true })
  if (!parsed.ok) return parsed.res
  const { mode, data } = parsed
  let result = { alreadySubscribed: false, mailed: true }
  let checked = true
  if (!isBot(data)) {
    const check = await checkForm(c, mode, data, 'guide')
    if (!check.ok) return check.res
    checked = check.checked
    const saved = await store(c, mode, () =>
      // "… has been sent to your email" (SPEC §8): the guide is in the outbox with the request
      requestGuide(
        c,
        { email: data.email, name: data.name, guide: data.guide, language: c.var.lang },
        checked,
      ),
    )
    if (!saved.ok) return saved.res
    result = saved.value
  }
  const downloadUrl = guideUrl(data.guide, c.var.lang, true)
  const t = c.var.t
  const title = t(`guides.${data.guide}.title`)
  if (mode === 'json') return c.json({ ...result, downloadUrl })
  // not e-mailed (no JavaScript, or over the day's ceiling): the page says so, and offers the file
  const text = !checked
    ? 'notices.download_unchecked_text'
    : result.mailed
      ? 'notices.download_text'
      : 'notices.download_not_mailed_text'
  return formResult(c, 200, t('notices.download_title'), t(text, { title }), {
    href: downloadUrl,
    label: t('home.guide_download_again'),
    download: true,
  })
})

leads.post('/contact', ...guard, async (c) => {
  const parsed = await parse(c, ContactSchema, { formAllowed: true })
  if (!parsed.ok) return parsed.res
  const { mode, data } = parsed
  const t = c.var.t
  if (data.service !== 'other' && !findService(data.service)) {
    const error = t('errors.invalid')
    return mode === 'json'
      ? c.json({ error, fields: { service: error } }, 400)
      : formResult(c, 400, t('notices.error_title'), error)
  }
  if (!isBot(data)) {
    const { website: _honeypot, ...message } = data
    const saved = await store(c, mode, () =>
      sendContactMessage(c, { ...message, language: c.var.lang }),
    )
    if (!saved.ok) return saved.res
  }
  if (mode === 'json') return c.json({ ok: true })
  return formResult(c, 200, t('notices.contact_title'), t('notices.contact_text'))
})
