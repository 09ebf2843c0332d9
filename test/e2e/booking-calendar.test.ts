import ICAL from 'ical.js'
import { describe, expect, inject, it } from 'vitest'
import ar from '../../locales/ar.json'
import en from '../../locales/en.json'
import { fireCron } from '../../scripts/lib/crons.mjs'
import { useBrowser } from './browser'
import { mailTo, siteLink } from './inbox'

// Booking against the agency's calendar, on the local CalDAV server `npm start` runs (the main
// test server has it, read again every second): the agency's own event takes its slot, a
// visitor's booking appears in the calendar under their name, moves with them from their
// e-mail's link (same UID), goes when they cancel, and is reminded a day before.

const { open, baseURL } = useBrowser()
const calendarURL = inject('calendarURL')
const authorization = `Basic ${Buffer.from('agency:agency').toString('base64')}`

/** The calendar's events, as a calendar app reads them. */
async function events() {
  const res = await fetch(calendarURL, {
    method: 'REPORT',
    headers: { Authorization: authorization, Depth: '1', 'Content-Type': 'application/xml' },
    body: `<?xml version="1.0" encoding="utf-8"?>
<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
  <d:prop><c:calendar-data/></d:prop>
  <c:filter><c:comp-filter name="VCALENDAR"/></c:filter>
</c:calendar-query>`,
  })
  const xml = await res.text()
  return [...xml.matchAll(/<CAL:calendar-data>([\s\S]*?)<\/CAL:calendar-data>/g)].map((m) => {
    const text = m[1].replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')
    const event = new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent('vevent')!
    return {
      uid: String(event.getFirstPropertyValue('uid')),
      summary: String(event.getFirstPropertyValue('summary')),
      start: (event.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().toISOString(),
    }
  })
}

const stamp = (iso: string) => iso.replace(/[-:]/g, '').replace(/\.\d{3}/, '')

/** The agency puts a meeting in its calendar (its calendar app's PUT). */
async function agencyMeeting(start: string) {
  const uid = `agency-${crypto.randomUUID()}`
  const end = new Date(Date.parse(start) + 30 * 60_000).toISOString()
  const res = await fetch(`${calendarURL}${uid}.ics`, {
    method: 'PUT',
    headers: { Authorization: authorization, 'Content-Type': 'text/calendar' },
    body: [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Test//Agency//EN',
      'BEGIN:VEVENT',
      `UID:${uid}`,
      `DTSTAMP:${stamp(new Date().toISOString())}`,
      `DTSTART:${stamp(start)}`,
      `DTEND:${stamp(end)}`,
      'SUMMARY:Client workshop',
      'END:VEVENT',
      'END:VCALENDAR',
      '',
    ].join('\r\n'),
  })
  expect(res.status).toBe(201)
}

const freeSlots = async () =>
  ((await (await fetch(`${baseURL}/api/bookings/slots`)).json()) as { slots: string[] }).slots

/** Waits for the slots page to say (or stop saying) a slot is free: it reads every second. */
async function slotFree(slot: string, free: boolean) {
  await expect.poll(async () => (await freeSlots()).includes(slot), { timeout: 15_000 }).toBe(free)
}

describe('booking against the agency’s calendar', () => {
  for (const [lang, t] of [
    ['en', en],
    ['ar', ar],
  ] as const) {
    it(`in ${lang}: the agency's meeting takes a slot; a visitor books, moves and cancels from the e-mail, and is reminded`, async () => {
      const slots = await freeSlots()
      // slots later than the other browser tests take, different for each language
      const offset = lang === 'en' ? 60 : 90
      await agencyMeeting(slots[offset])
      await slotFree(slots[offset], false)

      const id = crypto.randomUUID().slice(0, 6)
      const name = `Calendar Booker ${id}`
      const email = `cal-${lang}-${id}@example.org`
      const page = await open(`/book?lang=${lang}`)
      // the day buttons exist once the form is hydrated
      const days = page.locator('div[role=group]').getByRole('button')
      await days.first().waitFor()
      await days.nth(lang === 'en' ? 5 : 6).click()
      const time = page.getByRole('radio').nth(3)
      const slot = (await time.getAttribute('value'))!
      await page.locator(`label:has(input[value="${slot}"])`).click()
      const form = page.locator('main form[action="/api/bookings"]')
      await form.getByLabel(t.booking.name).fill(name)
      await form.getByLabel(t.booking.email).fill(email)
      await form.getByRole('button', { name: t.booking.submit }).click()
      await page.getByRole('heading', { name: t.booking.confirmed_title }).waitFor()
      expect(
        await page.getByRole('link', { name: t.booking.manage_link }).getAttribute('href'),
      ).toMatch(/^\/book\/manage\?token=/)

      // the event is in the agency's calendar, under the visitor's name
      await expect
        .poll(async () => (await events()).find((e) => e.summary.includes(name))?.start, {
          timeout: 15_000,
        })
        .toBe(slot)
      const { uid } = (await events()).find((e) => e.summary.includes(name))!

      // the confirmation's link: another time
      const confirmation = await mailTo(email, /./)
      const manage = confirmation.text!.match(/https?:\/\/\S+\/book\/manage\?token=\S+/)![0]
      await page.goto(manage)
      await page.getByRole('heading', { name: t.booking.manage_title, level: 1 }).waitFor()
      const options = page.locator('#manage-slot option')
      const to = (await options.nth(12).getAttribute('value'))!
      await page.locator('#manage-slot').selectOption(to)
      await page.getByRole('button', { name: t.booking.reschedule_button }).click()
      await page.getByRole('heading', { name: t.booking.moved_title }).waitFor()
      await expect
        .poll(async () => (await events()).find((e) => e.uid === uid)?.start, { timeout: 15_000 })
        .toBe(to)
      expect((await events()).filter((e) => e.uid === uid)).toHaveLength(1)
      // the agency is told (in its own language)
      await mailTo('hello@growthagency.example', new RegExp(`Booking moved by ${name}`))

      // a day before, the reminder: the cron fired with the clock advanced
      const fired = await fireCron(baseURL, '*/5 * * * *', new Date(Date.parse(to) - 23 * 3600_000))
      expect(fired.ok).toBe(true)
      const reminder = await mailTo(
        email,
        new RegExp(t.mail.reminder_day_subject.split('{{')[0].trim()),
      )
      expect(reminder.html).toContain(`lang="${lang}"`)
      expect(siteLink(reminder.text!).pathname).toBeTruthy()

      // and they cancel: the event goes, the time is free again
      await page.goto(manage)
      await page.getByRole('button', { name: t.booking.cancel_button }).click()
      await page.getByRole('heading', { name: t.booking.cancelled_title }).waitFor()
      await expect
        .poll(async () => (await events()).some((e) => e.uid === uid), { timeout: 15_000 })
        .toBe(false)
      await slotFree(to, true)
      await mailTo('hello@growthagency.example', new RegExp(`Booking cancelled by ${name}`))
    })
  }
})
