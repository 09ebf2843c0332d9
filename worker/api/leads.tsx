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
import { formAgain } from '../components/form-again'
import { isBot, parse, store } from './forms'
import { checkForm } from './challenge'

/**
 * The lead endpoints (SPEC §7 and its siblings). Islands post JSON and get JSON; the same
 * forms posted without JavaScript (urlencoded) get a page saying what happened.
 */
export const leads = new Hono<AppEnv>()

// Each lead route carries its own guard: a `use()` here would also run on every other /api route.
const guard = formGuard()

/** The address typed, as the form again (components/form-again.tsx) shows it. */
const emailField = (label: string, value: string) => ({
  name: 'email',
  type: 'email' as const,
  label,
  value,
  autoComplete: 'email',
  maxLength: 254,
})
const nameField = (label: string, value: string) => ({
  name: 'name',
  label,
  value,
  autoComplete: 'name',
  maxLength: 100,
})

leads.post('/email-signup', ...guard, async (c) => {
  // the popup's island posts JSON; pressed before that island's script came, the browser
  // posts the popup's form itself
  const parsed = await parse(c, EmailSignupSchema, { formAllowed: true })
  if (!parsed.ok) return parsed.res
  const { mode, data } = parsed
  const { name, email } = data
  const t = c.var.t
  let result = { alreadySubscribed: false, mailed: true }
  // Bots get the answer a person would, and nothing is stored.
  if (!isBot(data)) {
    const check = await checkForm(c, mode, data, 'welcome-popup')
    if (!check.ok) return check.res
    // The popup promises the starter guide by e-mail: a new subscriber gets it
    // (services/leads.ts). Without a token: added, marked, e-mailed nothing, and the form
    // again, which sends itself once the page's scripts run (docs/bots.md).
    const saved = await store(c, mode, () =>
      subscribe(
        c,
        { email, name, source: 'website', form: 'welcome_popup', language: c.var.lang },
        check.checked,
      ),
    )
    if (!saved.ok) return saved.res
    if (!check.checked)
      return formAgain(c, {
        title: t('notices.newsletter_unchecked_title'),
        text: t('notices.newsletter_unchecked_text'),
        action: '/api/email-signup',
        challenge: 'welcome-popup',
        fields: [nameField(t('popup.name'), name), emailField(t('popup.email'), email)],
        submit: t('popup.submit'),
      })
    result = saved.value
  }
  if (mode === 'json') return c.json(result)
  // as the popup's notices word it (client/lib/use-lead-form.ts announceSubscription)
  if (result.alreadySubscribed)
    return formResult(c, 200, t('notices.already_title'), t('notices.already_text'))
  return formResult(
    c,
    200,
    t('notices.success_title'),
    t(result.mailed ? 'notices.success_text' : 'notices.mail_not_sent'),
  )
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
  // without a token (no JavaScript, or pressed before the page's scripts came): a new address
  // is kept, one the list holds is left as it is, nothing is e-mailed; the answer is the form
  // again, which sends itself once the page's scripts run, the same whatever the address
  if (!checked)
    return formAgain(c, {
      title: t('notices.newsletter_unchecked_title'),
      text: t('notices.newsletter_unchecked_text'),
      action: '/api/newsletter',
      challenge: 'newsletter',
      fields: [emailField(t('footer.newsletter_email'), data.email)],
      submit: t('footer.newsletter_submit'),
    })
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
  const download = { href: downloadUrl, label: t('home.guide_download_again') }
  // without a token: the file at once, and the form again, which sends itself (and so the copy
  // by e-mail) once the page's scripts run; without JavaScript it says JavaScript is needed
  if (!checked)
    return formAgain(c, {
      title: t('notices.download_title'),
      text: t('notices.download_unchecked_text', { title }),
      action: '/api/guide-requests',
      challenge: 'guide',
      fields: [
        nameField(t('home.guide_name'), data.name),
        emailField(t('home.guide_email'), data.email),
      ],
      hidden: { guide: data.guide },
      submit: t('home.guide_email_copy'),
      download,
    })
  // not e-mailed (over the day's ceiling): the page says so, and offers the file
  const text = result.mailed ? 'notices.download_text' : 'notices.download_not_mailed_text'
  return formResult(c, 200, t('notices.download_title'), t(text, { title }), {
    ...download,
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
