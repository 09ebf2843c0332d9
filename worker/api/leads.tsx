import { Hono } from 'hono'
import {
  ContactSchema,
  EmailSignupSchema,
  GuideRequestSchema,
  NewsletterSchema,
} from '../../client/schemas/leads'
import { findService } from '../data/services'
import { addContactMessage, addGuideRequest, addSubscriber } from '../db/leads'
import type { AppEnv } from '../env'
import { formGuard } from '../middleware/form-guard'
import { queueMail } from '../mail/send'
import { guideUrl } from '../data/guides'
import { formResult, isBot, parse, store } from './forms'

/**
 * The lead endpoints (SPEC §7 and its siblings). Islands post JSON and get JSON; the same
 * forms posted without JavaScript (urlencoded) get a page saying what happened.
 */
export const leads = new Hono<AppEnv>()

/** The guide the welcome popup's "Digital Marketing Starter Guide" e-mail links to. */
const STARTER_GUIDE = 'invisible-business-mistakes'

// Each lead route carries its own guard: a `use()` here would also run on every other /api route.
const guard = formGuard()

leads.post('/email-signup', ...guard, async (c) => {
  const parsed = await parse(c, EmailSignupSchema, { formAllowed: false })
  if (!parsed.ok) return parsed.res
  const { name, email, source } = parsed.data
  // Bots get the answer a person would, and nothing is stored.
  if (isBot(parsed.data)) return c.json({ alreadySubscribed: false })
  const saved = await store(c, 'json', () =>
    addSubscriber(c.env.DB, { email, name, source, form: 'welcome_popup', language: c.var.lang }),
  )
  if (!saved.ok) return saved.res
  // The popup promises the starter guide by e-mail: a new subscriber gets it.
  if (!saved.value.alreadySubscribed) {
    const { t, lang, config } = c.var
    queueMail(c, {
      to: email,
      subject: t('mail.welcome_subject'),
      text: t('mail.welcome_body', { name, link: config.siteUrl + guideUrl(STARTER_GUIDE, lang) }),
    })
  }
  return c.json(saved.value)
})

leads.post('/newsletter', ...guard, async (c) => {
  const parsed = await parse(c, NewsletterSchema, { formAllowed: true })
  if (!parsed.ok) return parsed.res
  const { mode, data } = parsed
  let result = { alreadySubscribed: false }
  if (!isBot(data)) {
    const saved = await store(c, mode, () =>
      addSubscriber(c.env.DB, {
        email: data.email,
        name: null,
        source: 'website',
        form: 'newsletter',
        language: c.var.lang,
      }),
    )
    if (!saved.ok) return saved.res
    result = saved.value
  }
  if (mode === 'json') return c.json(result)
  const t = c.var.t
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
  let result = { alreadySubscribed: false }
  if (!isBot(data)) {
    const saved = await store(c, mode, () =>
      addGuideRequest(c.env.DB, {
        email: data.email,
        name: data.name,
        guide: data.guide,
        language: c.var.lang,
      }),
    )
    if (!saved.ok) return saved.res
    result = saved.value
  }
  const downloadUrl = guideUrl(data.guide, c.var.lang, true)
  const t = c.var.t
  const title = t(`guides.${data.guide}.title`)
  // "… has been sent to your email" (SPEC §8): it is, as well as downloaded now.
  if (!isBot(data))
    queueMail(c, {
      to: data.email,
      subject: t('mail.guide_subject', { title }),
      text: t('mail.guide_body', {
        name: data.name,
        title,
        link: c.var.config.siteUrl + guideUrl(data.guide, c.var.lang),
        booking: c.var.config.siteUrl + '/book',
      }),
    })
  if (mode === 'json') return c.json({ ...result, downloadUrl })
  return formResult(c, 200, t('notices.download_title'), t('notices.download_text', { title }), {
    href: downloadUrl,
    label: t('home.guide_download_again'),
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
      addContactMessage(c.env.DB, { ...message, language: c.var.lang }),
    )
    if (!saved.ok) return saved.res
  }
  if (mode === 'json') return c.json({ ok: true })
  return formResult(c, 200, t('notices.contact_title'), t('notices.contact_text'))
})
