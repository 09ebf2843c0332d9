import { env } from 'cloudflare:test'
import ICAL from 'ical.js'
import { beforeAll, describe, expect, it } from 'vitest'
import { LANGS, type Lang } from '../../../client/lib/languages'
import ar from '../../../locales/ar.json'
import de from '../../../locales/de.json'
import en from '../../../locales/en.json'
import es from '../../../locales/es.json'
import fr from '../../../locales/fr.json'
import pt from '../../../locales/pt.json'
import { describeSlot } from '../../../worker/booking/invitation'
import type { OutboxRow } from '../../../worker/db/outbox'
import { createTranslator } from '../../../worker/i18n/translator'
import { renderMail } from '../../../worker/mail/render'
import { TEMPLATES, type MailKind } from '../../../worker/mail/templates'
import { issueWith } from '../newsletter'

// Every kind of e-mail, in all six languages: subject, text, HTML, headers, attachment.

const booked = {
  name: 'Ada Lovelace',
  email: 'ada@example.org',
  slotStart: '2026-12-01T10:00:00.000Z',
  timeZone: 'Europe/London',
  token: '3f0c2b1e-1111-4c4c-9a9a-123456789abc',
  // what RFC 5545 escapes: a calendar must show it as written
  notes: 'About our Shopify store; prices, stock\\levels',
  language: 'en',
}

/** The same call, moved a day later by the agency. */
const moved = '2026-12-02T14:30:00.000Z'

const SAMPLES: Record<MailKind, unknown> = {
  welcome: { name: 'Ada' },
  subscribe_confirm: { name: 'Ada', nonce: '0b7e5a4c-0000-4000-8000-000000000001' },
  newsletter: { subject: 'Five listing fixes', paragraphs: ['First.', 'Second.'] },
  // an issue of the desk (written in beforeAll): its text is read from D1 in the language
  newsletter_test: { issue: 0 },
  data_request: { action: 'erase', email: 'reader@example.org' },
  guide: { name: 'Ada', guide: 'social-media-growth-kit' },
  booking_confirmation: booked,
  agency_booking: booked,
  // as the agency cancels one: with the cancel for the calendar that has the call
  booking_cancelled: {
    name: booked.name,
    slotStart: booked.slotStart,
    timeZone: booked.timeZone,
    invitation: { ...booked, sequence: 1 },
  },
  booking_moved: { ...booked, slotStart: moved, previousStart: booked.slotStart },
  agency_booking_changed: {
    name: booked.name,
    email: booked.email,
    slotStart: booked.slotStart,
    movedTo: moved,
    agencyTimeZone: 'Europe/London',
  },
  booking_reminder: { ...booked, hours: 24, meetingUrl: 'https://meet.jit.si/northstar-test' },
  agency_contact: {
    name: 'Ada Lovelace',
    email: 'ada@example.org',
    company: 'Analytical Engines',
    service: 'amazon',
    budget: '1k_5k',
    message: 'We sell on Amazon.\r\nCan you help <b>us</b>?',
    language: 'en',
  },
  // a day of its own (the digest lists every row of its window: 2000-2100 read every other file's
  // leads in the shared database, 50,000 of them after the newsletter's drain)
  agency_digest: { since: '2001-11-01T00:00:00.000Z', until: '2001-11-02T00:00:00.000Z' },
  auth_recovery: { link: 'https://example.com/auth/reset?token=abc' },
  auth_magic_link: { link: 'https://example.com/auth/confirm?token_hash=abc', code: '123456' },
  auth_reauthentication: { code: '654321' },
  auth_confirm_signup: { link: 'https://example.com/auth/confirm?token_hash=def&type=signup' },
  auth_email_change: { link: 'https://example.com/auth/confirm?token_hash=ghi&type=email_change' },
  auth_email_change_current: {
    newEmail: 'new@example.org',
    link: 'https://example.com/auth/confirm?token_hash=jkl&type=email_change',
  },
  team_invite: { token: 'a'.repeat(64), role: 'editor', inviter: 'owner@example.org' },
  webhook_disabled: {
    url: 'https://hooks.example.com/leads',
    description: 'CRM',
    since: '2026-01-01T09:00:00.000Z',
  },
}

const row = (kind: MailKind, language: Lang, data = SAMPLES[kind]): OutboxRow => ({
  id: 42,
  kind,
  data: JSON.stringify(data),
  category: TEMPLATES[kind].category,
  language,
  to_address: 'reader@example.org',
  site_url: 'https://example.com',
  subject: '',
  body_text: null,
  status: 'sending',
  attempts: 1,
  provider: null,
  provider_message_id: null,
  last_error: null,
  created_at: '',
  updated_at: '',
  sent_at: null,
  hold_reason: null,
  unconfirmed: 0,
})

const KINDS = Object.keys(TEMPLATES) as MailKind[]

beforeAll(async () => {
  SAMPLES.newsletter_test = {
    issue: await issueWith({
      en: {
        subject: 'Five listing fixes',
        body: '- Titles\n- Photos\n\n**Second**, with [a link](/blog).',
      },
      ar: { subject: 'خمسة إصلاحات', body: '- العناوين\n- الصور\n\n**ثانياً**، مع [رابط](/blog).' },
    }),
  }
})

/** What a text-only client shows of a button: a word no text part may use ("click the button"). */
const BUTTON = {
  en: /\bbutton\b/i,
  es: /botón/i,
  fr: /bouton/i,
  de: /Schaltfläche|Button/,
  pt: /botão/i,
  ar: /الزر/,
}

/** "1 guide download", as each language counts one (not "1 descarga de guías"). */
const ONE_GUIDE_DOWNLOAD = {
  en: '1 guide download',
  es: '1 descarga de guía',
  fr: '1 téléchargement de guide',
  de: '1 Leitfaden-Download',
  pt: '1 download de guia',
  ar: 'تنزيل واحد لدليل',
}

/** A weekday is "on Tuesday", "يوم الثلاثاء": never "at Tuesday", "في الثلاثاء". */
const AT_WEEKDAY =
  /\bat (Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day|في (الأحد|الاثنين|الثلاثاء|الأربعاء|الخميس|الجمعة|السبت)/

/** The inbox's preview line: the HTML part's hidden preheader, as text. */
const preheader = (html: string) =>
  html
    .match(/<div style="display:none[^>]*>([^<]*)<\/div>/)![1]
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, '&')

describe.each([
  ['en', en],
  ['es', es],
  ['fr', fr],
  ['de', de],
  ['pt', pt],
  ['ar', ar],
] as const)('every e-mail in %s', (lang, dict) => {
  const t = createTranslator(lang)
  it.each(KINDS)(
    '%s: subject, text and HTML in the language, with the agency signature',
    async (kind) => {
      const m = await renderMail(env, row(kind, lang))
      expect(m.subject.length).toBeGreaterThan(5)
      expect(m.subject).not.toMatch(/\{\{|mail\.|auth\./)
      expect(m.text).toContain(env.AGENCY_ADDRESS)
      expect(m.text).toContain('https://example.com')
      // a text-only client shows links, not buttons: the words must hold for both parts
      expect(m.text).not.toMatch(BUTTON[lang])
      // plain text: no placeholder, no HTML entity, no carriage return inside a line
      expect(m.text).not.toMatch(/\{\{|&(amp|lt|gt|quot|#x?[\da-f]+);|\r/i)
      expect(m.text + m.subject).not.toMatch(AT_WEEKDAY)
      // a zone's own brackets ("Vereinigtes Königreich (Ortszeit)") are never put in more
      expect(m.subject).not.toMatch(/\([^()]*\(/)
      expect(m.html).toContain(`<html lang="${lang}" dir="${lang === 'ar' ? 'rtl' : 'ltr'}"`)
      expect(m.html).toContain(env.AGENCY_ADDRESS)
      expect(m.from).toBe(env.MAIL_FROM)
      expect(m.to).toBe('reader@example.org')
      // one-click unsubscribe on what a subscriber gets, never on a transactional e-mail or a test
      const { category, test } = TEMPLATES[kind] as { category: string; test?: boolean }
      expect('List-Unsubscribe' in m.headers).toBe(category === 'marketing' && !test)
      // the agency's reply to a notice about a visitor reaches the visitor
      expect(m.replyTo === booked.email).toBe(
        ['agency_booking', 'agency_booking_changed', 'agency_contact'].includes(kind),
      )
    },
  )

  it('says what each reader needs, in their words', async () => {
    const welcome = await renderMail(env, row('welcome', lang))
    expect(welcome.subject).toBe(dict.mail.welcome_subject)
    expect(welcome.text).toContain(dict.mail.welcome_intro)
    expect(welcome.text).toContain(
      `https://example.com/guides/invisible-business-mistakes?lang=${lang}`,
    )
    expect(welcome.html).toContain(dict.mail.welcome_action.replaceAll("'", '&#x27;'))
    // marketing: the footer's unsubscribe link, and the mailbox's one-click button (RFC 8058)
    const unsubscribe = welcome.headers['List-Unsubscribe'].slice(1, -1)
    expect(unsubscribe).toMatch(
      new RegExp(`^https://example.com/unsubscribe\\?token=[\\w.-]+&lang=${lang}$`),
    )
    expect(welcome.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click')
    expect(welcome.text).toContain(
      t('mail.label_value', { label: dict.mail.unsubscribe, value: unsubscribe }),
    )
    expect(welcome.html).toContain(unsubscribe.replace('&', '&amp;'))

    // double opt-in: the starter guide and the confirmation, no unsubscribe header (not marketing)
    const optin = await renderMail(env, row('subscribe_confirm', lang))
    expect(optin.subject).toBe(dict.mail.optin_subject)
    expect(optin.text).toContain(
      t('mail.label_value', {
        label: dict.mail.optin_action,
        value: 'https://example.com/subscribe/confirm?token=',
      }),
    )
    expect(optin.text).toContain(
      `https://example.com/guides/invisible-business-mistakes?lang=${lang}`,
    )
    expect(optin.headers['List-Unsubscribe']).toBeUndefined()

    const code = await renderMail(env, row('auth_magic_link', lang))
    expect(code.subject).toBe(dict.auth.magic_link_subject)
    expect(code.text).toContain('123456')
    expect(code.html).toContain('https://example.com/auth/confirm?token_hash=abc')
    // "reset your password now", if the code was not asked for: with the way to do it
    const reauth = await renderMail(env, row('auth_reauthentication', lang))
    expect(reauth.text).toContain(
      t('mail.label_value', {
        label: dict.mail.recovery_action,
        value: `https://example.com/auth?mode=forgot&lang=${lang}`,
      }),
    )
  })

  it.each(KINDS.filter((k) => !k.startsWith('auth_')))(
    '%s: every link to the site’s pages opens them in the reader’s language',
    async (kind) => {
      // (an auth e-mail's link comes from the auth service: test/worker/auth/one-time.test.ts)
      const m = await renderMail(env, row(kind, lang))
      const links = [
        ...[...m.html.matchAll(/href="(https:\/\/example\.com[^"]*)"/g)].map((l) =>
          l[1].replaceAll('&amp;', '&'),
        ),
        ...(m.text.match(/https:\/\/example\.com[^\s)]*/g) ?? []).map((l) =>
          l.replace(/[.,]$/, ''),
        ),
      ].map((l) => new URL(l))
      expect(links.length).toBeGreaterThan(0)
      for (const link of links)
        // a calendar file is not a page
        if (!link.pathname.endsWith('.ics'))
          expect(link.searchParams.get('lang'), `${kind}: ${link}`).toBe(lang)
    },
  )

  it('attaches the booking invitation: 30 minutes at the booked time, in the reader’s words', async () => {
    for (const [kind, method] of [
      ['booking_confirmation', 'REQUEST'],
      ['agency_booking', 'PUBLISH'],
    ] as const) {
      const m = await renderMail(env, row(kind, lang))
      expect(m.attachments).toHaveLength(1)
      const [ics] = m.attachments
      expect(ics.filename).toMatch(/\.ics$/)
      expect(ics.contentType).toBe(`text/calendar; charset=utf-8; method=${method}`)
      const calendar = new ICAL.Component(ICAL.parse(ics.content))
      expect(calendar.getFirstPropertyValue('method')).toBe(method)
      const vevent = calendar.getFirstSubcomponent('vevent')!
      const event = new ICAL.Event(vevent)
      expect(event.startDate.toJSDate().toISOString()).toBe(booked.slotStart)
      expect(event.duration.toSeconds()).toBe(30 * 60)
      expect(event.uid).toBe(`booking-${booked.token}@example.com`)
      expect(event.sequence).toBe(0)
      expect(event.summary).toBe(dict.booking.ics_summary)
      expect(event.description).toContain(
        dict.booking.ics_description.replace('{{length}}', t.plural('mail.call_length', 30)),
      )
      expect(event.description).toContain(booked.notes)
      expect(vevent.getFirstPropertyValue('organizer')).toBe('mailto:hello@growthagency.example')
      expect(vevent.getFirstProperty('attendee')!.getParameter('cn')).toBe(booked.name)
      // its link opens the contact page in the reader's language, as the e-mail's links do
      expect(vevent.getFirstPropertyValue('url')).toBe(`https://example.com/contact?lang=${lang}`)
    }
  })

  it('says how long the call is: the meeting length the desk set, not 30 minutes', async () => {
    const hour = { ...booked, slotEnd: '2026-12-01T11:00:00.000Z' }
    const length = t.plural('mail.call_length', 60)
    const intro = (key: 'booking_intro' | 'cancelled_intro' | 'moved_intro') =>
      dict.mail[key].replace('{{length}}', length)
    const confirmation = await renderMail(env, row('booking_confirmation', lang, hour))
    expect(confirmation.text).toContain(intro('booking_intro'))
    expect(preheader(confirmation.html).toLowerCase()).toContain(length.toLowerCase())
    const ics = ICAL.parse(confirmation.attachments[0].content)
    const event = new ICAL.Event(new ICAL.Component(ics).getFirstSubcomponent('vevent')!)
    expect(event.duration.toSeconds()).toBe(60 * 60)
    expect(event.description).toContain(dict.booking.ics_description.replace('{{length}}', length))
    const movedHour = { ...hour, slotStart: moved, slotEnd: '2026-12-02T15:30:00.000Z' }
    const m = await renderMail(
      env,
      row('booking_moved', lang, { ...movedHour, previousStart: booked.slotStart }),
    )
    expect(m.text).toContain(intro('moved_intro'))
    const cancelled = await renderMail(
      env,
      row('booking_cancelled', lang, {
        ...(SAMPLES.booking_cancelled as object),
        invitation: hour,
      }),
    )
    expect(cancelled.text).toContain(intro('cancelled_intro'))
    for (const mail of [confirmation, m, cancelled])
      expect(mail.text).not.toContain(t.plural('mail.call_length', 30))
  })

  it('reminds of the call an hour before, naming its day as the language does', async () => {
    const m = await renderMail(env, row('booking_reminder', lang, { ...booked, hours: 1 }))
    const when = describeSlot(booked.slotStart, lang, booked.timeZone)
    expect(m.subject).toBe(dict.mail.reminder_hour_subject.replace('{{when}}', when))
    expect(m.text).toContain(dict.mail.reminder_hour.replace('{{when}}', when))
    expect(m.text).not.toMatch(AT_WEEKDAY)
  })

  it('tells the agency the day’s sign-ups in its words: counts, forms, guides, languages', async () => {
    const month = String(LANGS.indexOf(lang) + 1).padStart(2, '0')
    const since = `2001-${month}-01T00:00:00.000Z`
    const email = `digest-${lang}@example.org`
    await env.DB.batch([
      env.DB.prepare(
        `INSERT INTO subscribers (email, signup_form, language, consent_version, created_at)
         VALUES (?, 'guide', 'pt', 'v1', ?)`,
      ).bind(email, `2001-${month}-01T09:00:00.000Z`),
      env.DB.prepare(
        `INSERT INTO guide_requests (email, name, guide, language, created_at)
         VALUES (?, 'Ada', 'social-media-growth-kit', 'pt', ?)`,
      ).bind(email, `2001-${month}-01T09:00:00.000Z`),
    ])
    const m = await renderMail(
      env,
      row('agency_digest', lang, { since, until: `2001-${month}-02T00:00:00.000Z` }),
    )
    expect(m.subject).toContain(ONE_GUIDE_DOWNLOAD[lang])
    const portuguese = new Intl.DisplayNames(lang, { type: 'language' }).of('pt')!
    expect(m.text).toContain(`${email} · ${dict.mail.digest_form_guide} · ${portuguese}`)
    const title = t('guides.social-media-growth-kit.title' as never)
    expect(m.text).toContain(`${email} · ${title} · ${portuguese}`)
    expect(m.text).not.toMatch(/ · (guide|social-media-growth-kit|pt)\b/)
    if (lang === 'de') expect(m.text).toContain('Neu auf der Website seit dem 1. ')
  })

  it.each(KINDS)('%s: the preview line is a sentence of its own, text only', async (kind) => {
    const m = await renderMail(env, row(kind, lang))
    const line = preheader(m.html)
    expect(line.length).toBeGreaterThan(0)
    // words only: no link target, tag, placeholder, or a list's asterisk
    expect(line).not.toMatch(/https?:|<|\{\{|\*/)
    // German goes on in lower case after "Hallo Ada,"; alone, the line starts as a sentence does
    expect(line[0]).toBe(line[0].toLocaleUpperCase(lang))
  })

  it('writes "label: value" as the language does, and names the visitor’s language', async () => {
    const m = await renderMail(env, row('booking_confirmation', lang))
    const when = describeSlot(booked.slotStart, lang, booked.timeZone)
    expect(m.text).toContain(t('mail.label_value', { label: dict.mail.label_when, value: when }))
    if (lang === 'fr') expect(m.text).toContain(`Date et heure\u00a0: ${when}`)
    // the agency reads the visitor's language as a name in its own ("Englisch"), not "en"
    const english = new Intl.DisplayNames(lang, { type: 'language' }).of('en')!
    for (const kind of ['agency_booking', 'agency_contact'] as const)
      expect((await renderMail(env, row(kind, lang))).text).toContain(
        t('mail.label_value', { label: dict.mail.label_language, value: english }),
      )
  })

  it('tells of a cancelled call with the way to book again, of a moved one with its new invitation', async () => {
    const cancelled = await renderMail(env, row('booking_cancelled', lang))
    const before = describeSlot(booked.slotStart, lang, booked.timeZone)
    expect(cancelled.subject).toBe(dict.mail.cancelled_subject.replace('{{when}}', before))
    expect(cancelled.text).toContain(
      dict.mail.cancelled_intro.replace('{{length}}', t.plural('mail.call_length', 30)),
    )
    expect(cancelled.text).toContain(
      t('mail.label_value', {
        label: dict.mail.cancelled_action,
        value: `https://example.com/book?lang=${lang}`,
      }),
    )
    // the cancel removes the call from the visitor's calendar: the same UID, a higher SEQUENCE
    const cancel = new ICAL.Component(ICAL.parse(cancelled.attachments[0].content))
    expect(cancel.getFirstPropertyValue('method')).toBe('CANCEL')
    const vcancel = cancel.getFirstSubcomponent('vevent')!
    expect(vcancel.getFirstPropertyValue('uid')).toBe(`booking-${booked.token}@example.com`)
    expect(vcancel.getFirstPropertyValue('sequence')).toBe(1)
    expect(vcancel.getFirstPropertyValue('status')).toBe('CANCELLED')

    const m = await renderMail(env, row('booking_moved', lang))
    const after = describeSlot(moved, lang, booked.timeZone)
    expect(m.subject).toBe(dict.mail.moved_subject.replace('{{when}}', after))
    expect(m.text).toContain(after)
    expect(m.text).toContain(before)
    expect(m.text).toContain(`https://example.com/book/${booked.token}.ics`)
    const event = new ICAL.Event(
      new ICAL.Component(ICAL.parse(m.attachments[0].content)).getFirstSubcomponent('vevent')!,
    )
    expect(event.startDate.toJSDate().toISOString()).toBe(moved)
    // the same event as the first invitation: calendars update it rather than add another
    expect(event.uid).toBe(`booking-${booked.token}@example.com`)
  })

  it('sends the agency the whole message, escaped, with Reply-To the visitor', async () => {
    const m = await renderMail(env, row('agency_contact', lang))
    expect(m.replyTo).toBe('ada@example.org')
    expect(m.text).toContain('> We sell on Amazon.\n> Can you help <b>us</b>?')
    expect(m.html).toContain('Can you help &lt;b&gt;us&lt;/b&gt;?')
    expect(m.html).not.toContain('<b>us</b>')
    // the quote's bar where the text starts, in a property every mail client keeps
    expect(m.html).toContain(`border-${lang === 'ar' ? 'right' : 'left'}:4px solid`)
    expect(m.text).toContain('Analytical Engines')
  })
})

describe('what a visitor writes stays in the body', () => {
  it('keeps a name with line breaks out of the headers: one-line subject, no extra ics lines', async () => {
    const name = 'Mallory\r\nBcc: victim@example.org\r\n\r\nFake body'
    const m = await renderMail(env, {
      ...row('agency_booking', 'en'),
      data: JSON.stringify({ ...booked, name }),
    })
    expect(m.subject).not.toMatch(/[\r\n]/)
    const ics = m.attachments[0].content
    expect(ics).not.toMatch(/^Bcc:/m)
    expect(ics.split('\r\n').find((l) => l.startsWith('ATTENDEE'))).toContain('Mallory Bcc: victim')
  })
})
