import ICAL from 'ical.js'
import { describe, expect, inject, it } from 'vitest'
import ar from '../../locales/ar.json'
import en from '../../locales/en.json'
import { fireCron } from '../../scripts/lib/crons.mjs'
import { hydrated, PHONE, useBrowser } from './browser'
import { mailTo, siteLink } from './inbox'
import { claimSlot } from './slot-claims'

// Booking against the agency's calendar, on the local CalDAV server `npm start` runs (the main
// test server has it, read again every second): the agency's own event takes its slot, a
// visitor's booking appears in the calendar under their name, moves with them from their
// e-mail's link (same UID), goes when they cancel, and is reminded a day before.

const { open, baseURL } = useBrowser()
const plus = (iso: string, minutes: number) =>
  new Date(Date.parse(iso) + minutes * 60_000).toISOString()
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
async function agencyMeeting(start: string, minutes = 30) {
  const uid = `agency-${crypto.randomUUID()}`
  const end = new Date(Date.parse(start) + minutes * 60_000).toISOString()
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
    it(`in ${lang}: a time taken while the page was open goes from it, with every time the same meeting takes`, async () => {
      const slots = await freeSlots()
      // a slot with the two next ones free, all three claimed: the hour's meeting takes two, the
      // third must stay offered
      const slot = claimSlot(
        slots.slice(10).filter((s) => slots.includes(plus(s, 30)) && slots.includes(plus(s, 60))),
        { minutes: 90 },
      )
      const page = await open(`/book?lang=${lang}`)
      const days = page.locator('div[role=group]').getByRole('button')
      await days.first().waitFor()
      // the agency's meeting of an hour, put in after the page listed the times
      await agencyMeeting(slot, 60)
      const time = page.locator(`input[value="${slot}"]`)
      for (let i = 0; !(await time.count()); i++) await days.nth(i).click()
      await page.locator(`label:has(input[value="${slot}"])`).click()
      const form = page.locator('main form[action="/api/bookings"]')
      await form.getByLabel(t.booking.name).fill('Taken Meanwhile')
      await form.getByLabel(t.booking.email).fill(`taken-${lang}@example.org`)
      await form.getByRole('button', { name: t.booking.submit }).click()
      // refused (the calendar is read again), and the page takes the fresh times: the slot and
      // the one the same meeting covers are gone, nothing is chosen
      await page
        .getByText(new RegExp(`${t.booking.slot_taken}|${t.errors.slot_unavailable}`))
        .first()
        .waitFor()
      await expect.poll(() => time.count()).toBe(0)
      expect(await page.locator(`input[value="${plus(slot, 30)}"]`).count()).toBe(0)
      expect(await page.locator('input[name=slot]:checked').count()).toBe(0)
      expect(await page.locator(`input[value="${plus(slot, 60)}"]`).count()).toBe(1)
      // pressing again asks for a time instead of failing again
      await form.getByRole('button', { name: t.booking.submit }).click()
      await page.getByText(t.errors.slot_required).first().waitFor()
    })

    it(`in ${lang}: the agency's meeting takes a slot; a visitor books, moves and cancels from the e-mail, and is reminded`, async () => {
      const slots = await freeSlots()
      const meeting = claimSlot(slots.slice(10))
      await agencyMeeting(meeting)
      await slotFree(meeting, false)

      const id = crypto.randomUUID().slice(0, 6)
      const name = `Calendar Booker ${id}`
      const email = `cal-${lang}-${id}@example.org`
      const page = await open(`/book?lang=${lang}`)
      // the day buttons exist once the form is hydrated
      const days = page.locator('div[role=group]').getByRole('button')
      await days.first().waitFor()
      const slot = claimSlot(slots.slice(10).filter((s) => s !== meeting))
      const time = page.locator(`input[value="${slot}"]`)
      for (let i = 0; !(await time.count()); i++) await days.nth(i).click()
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
      // the picker starts on the booking, and shows its day while closed
      const picker = page.locator('#manage-slot')
      expect(await picker.inputValue()).toBe(slot)
      const shown = await picker.evaluate((s: HTMLSelectElement) => s.selectedOptions[0].text)
      const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)
      const weekday = new Intl.DateTimeFormat(lang, { weekday: 'short', timeZone: zone })
      expect(shown).toContain(weekday.format(new Date(slot)))
      expect(shown).toContain(t.booking.current_time.replace(/^\{\{when\}\} /, ''))
      const options = page.locator('#manage-slot option')
      const values = await options.evaluateAll((o) => o.map((e) => (e as HTMLOptionElement).value))
      // a time the agency's calendar took since the page was shown: refused, and the way back
      const taken = claimSlot(values.slice(8))
      await agencyMeeting(taken)
      await picker.selectOption(taken)
      await page.getByRole('button', { name: t.booking.reschedule_button }).click()
      await page.getByText(t.booking.slot_taken).first().waitFor()
      await page.getByRole('link', { name: t.booking.back_to_booking }).click()
      await page.getByRole('heading', { name: t.booking.manage_title, level: 1 }).waitFor()
      // a time more than a day after the booking was made, so that the day-before reminder is
      // owed (reminders.ts): chosen from now, not by its place in the list, which at 21:00 is
      // tomorrow afternoon
      const to = claimSlot(values.filter((v) => Date.parse(v) > Date.now() + 25 * 3600_000))
      await picker.selectOption(to)
      await page.getByRole('button', { name: t.booking.reschedule_button }).click()
      await page.getByRole('heading', { name: t.booking.moved_title }).waitFor()
      // the answer is a page of its own (redirect after the post): a reload sends nothing again
      expect(new URL(page.url()).pathname).toBe('/book/manage')
      const methods: string[] = []
      page.on('request', (r) => methods.push(r.method()))
      await page.reload()
      await page.getByRole('heading', { name: t.booking.moved_title }).waitFor()
      expect(methods).not.toContain('POST')
      expect(await picker.inputValue()).toBe(to)

      // on a phone, nothing floats over "Cancel my booking", even at the screen's bottom edge
      const phone = await open(new URL(manage).pathname + new URL(manage).search, {
        viewport: PHONE,
      })
      const cancel = phone.getByRole('button', { name: t.booking.cancel_button })
      // at once (the page scrolls smoothly, and the button's edge read 2 px below the screen,
      // as nothing, while it moved), once the page is whole (scripts run, fonts in)
      await hydrated(phone)
      const covered = await cancel.evaluate(async (b) => {
        await document.fonts.ready
        b.scrollIntoView({ block: 'end', behavior: 'instant' })
        const r = b.getBoundingClientRect()
        // inside its rounded outline: its middle, both ends and its top and bottom edges
        const [x, y, h] = [(r.left + r.right) / 2, (r.top + r.bottom) / 2, r.height / 2]
        const points = [
          [x, y],
          [r.left + h, y],
          [r.right - h, y],
          [x, r.top + 2],
          [x, r.bottom - 2],
        ]
        // what is there instead, named (nothing: the point left the screen)
        return points
          .map(([x, y]) => document.elementFromPoint(x, y))
          .filter((el) => !b.contains(el))
          .map((el) => el?.outerHTML.slice(0, 120) ?? 'nothing')
      })
      expect(covered).toEqual([])
      await phone.context().close()
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
      expect(new URL(page.url()).searchParams.get('done')).toBe('cancelled')
      await expect
        .poll(async () => (await events()).some((e) => e.uid === uid), { timeout: 15_000 })
        .toBe(false)
      await slotFree(to, true)
      await mailTo('hello@growthagency.example', new RegExp(`Booking cancelled by ${name}`))
    })
  }
})
