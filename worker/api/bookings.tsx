import { Hono, type Context } from 'hono'
import * as v from 'valibot'
import { BookingSchema } from '../../client/schemas/booking'
import { describeSlot, icsPath, managePath, type ManageOutcome } from '../booking/invitation'
import { readAvailability } from '../booking/slots'
import { sealLink } from '../consent/links'
import type { AppEnv } from '../env'
import { formGuard, limitBody, sameSiteOnly } from '../middleware/form-guard'
import {
  book,
  cancelBooking,
  currentSlots,
  managedBooking,
  moveBooking,
} from '../services/bookings'
import { bookingLinkProblem, formResult } from '../components/form-result'
import { notBooked } from '../components/not-booked'
import { formFields, isBot, parse, store } from './forms'
import { checkForm } from './challenge'

/** The built-in booking page's API: free slots, booking one, its calendar invitation. */
export const bookings = new Hono<AppEnv>()

const validZone = (zone: string | undefined, fallback: string) => {
  if (!zone) return fallback
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone })
    return zone
  } catch {
    return fallback
  }
}

bookings.get('/slots', async (c) => {
  try {
    return c.json(await currentSlots(c))
  } catch (err) {
    console.error('D1 read failed', err)
    return c.json({ error: c.var.t('errors.unavailable') }, 503)
  }
})

// the same guard as the lead forms, for the booking post only
bookings.post('/', ...formGuard(), async (c) => {
  const parsed = await parse(c, BookingSchema, { formAllowed: true })
  if (!parsed.ok) return parsed.res
  const { mode, data } = parsed
  const t = c.var.t
  const availability = readAvailability(c.env)
  const timeZone = validZone(data.timeZone, availability.timeZone)
  const slot = new Date(data.slot).toISOString()

  const free = await store(c, mode, () => currentSlots(c))
  if (!free.ok) return free.res
  // Past, too soon, outside the hours or already booked: not a slot we offer now.
  if (!free.value.slots.includes(slot)) {
    const error = t('errors.slot_unavailable')
    return mode === 'json'
      ? c.json({ error, slots: free.value.slots }, 409)
      : formResult(c, 409, t('notices.error_title'), error, {
          href: '/book',
          label: t('booking.choose_time'),
        })
  }
  if (isBot(data)) return c.json({ error: t('booking.slot_taken'), slots: free.value.slots }, 409)
  const check = await checkForm(c, mode, data, 'booking')
  if (!check.ok) return check.res
  // without the challenge (a page without JavaScript): no slot is taken and nobody is e-mailed;
  // the page says so and gives the form back as typed (docs/bots.md)
  if (!check.checked)
    return notBooked(
      c,
      { slot, name: data.name, email: data.email, notes: data.notes, timeZone },
      free.value.slots,
    )

  const saved = await store(c, mode, () =>
    book(
      c,
      {
        slotStart: slot,
        name: data.name,
        email: data.email,
        notes: data.notes,
        timeZone,
        language: c.var.lang,
      },
      free.value.availability,
    ),
  )
  if (!saved.ok) return saved.res
  if ('taken' in saved.value) {
    const error = t('booking.slot_taken')
    // listed afresh: the calendar was read and the bookings checked just now, so whatever took
    // this slot (a meeting of an hour, a booking) takes every other slot it covers too
    const fresh = await store(c, mode, () => currentSlots(c))
    if (!fresh.ok) return fresh.res
    return mode === 'json'
      ? c.json({ error, slots: fresh.value.slots }, 409)
      : formResult(c, 409, t('notices.error_title'), error, {
          href: '/book',
          label: t('booking.choose_time'),
        })
  }

  // the confirmation (with the invitation) and the agency's notice are in the outbox with it
  const booking = saved.value.booking
  const when = describeSlot(slot, c.var.lang, timeZone)
  const manageUrl = managePath(
    await sealLink(c.env, { p: 'booking', t: booking.token }),
    c.var.lang,
  )
  const mailed = saved.value.mailed
  const answer = { start: slot, when, timeZone, icsUrl: icsPath(booking.token), manageUrl, mailed }
  if (mode === 'json') return c.json({ booking: answer })
  return formResult(
    c,
    200,
    t('booking.confirmed_title'),
    t(mailed ? 'booking.confirmed_text' : 'booking.confirmed_not_mailed_text', {
      email: booking.email,
      when,
    }),
    { href: answer.icsUrl, label: t('booking.add_calendar'), download: true },
  )
})

const Manage = v.object({
  token: v.pipe(v.string(), v.maxLength(2000)),
  slot: v.optional(v.pipe(v.string(), v.isoTimestamp())),
})

/** The visitor as the audit log names them: their booking, their address. */
const visitor = (email: string) => ({ id: 'visitor', email })

/**
 * Where a visitor's change leaves them: their booking's page, which says what became of it. A
 * redirect after the post (303), so a reload shows the page again and never resends the form.
 */
const backToBooking = (c: Context<AppEnv>, token: string, done?: ManageOutcome) =>
  c.redirect(`${managePath(token, c.var.lang)}${done ? `&done=${done}` : ''}`, 303)

/** A visitor moves their own booking, from its page: a slot offered now, checked afresh. */
bookings.post('/manage/move', sameSiteOnly(), limitBody(4096), async (c) => {
  const form = v.safeParse(Manage, await formFields(c))
  const t = c.var.t
  if (!form.success) return formResult(c, 400, t('notices.error_title'), t('errors.slot_required'))
  const { token, slot } = form.output
  // every refusal leads back to the booking's page
  const again = { href: managePath(token, c.var.lang), label: t('booking.back_to_booking') }
  if (!slot) return formResult(c, 400, t('notices.error_title'), t('errors.slot_required'), again)
  const found = await managedBooking(c, token)
  if (!found.booking) return bookingLinkProblem(c, found.problem)
  const booking = found.booking
  const to = new Date(slot).toISOString()
  // the time it already has: nothing to change
  if (to === booking.slotStart) return backToBooking(c, token)
  // its own time and buffer are free for it; the move reads the calendar afresh
  const free = await currentSlots(c, { except: booking.id })
  if (
    !free.slots.includes(to) ||
    !(await moveBooking(c, booking, to, visitor(booking.email), true))
  )
    return formResult(c, 409, t('notices.error_title'), t('booking.slot_taken'), again)
  return backToBooking(c, token, 'moved')
})

/** A visitor cancels their own booking, from its page: the slot is free again. */
bookings.post('/manage/cancel', sameSiteOnly(), limitBody(4096), async (c) => {
  const form = v.safeParse(Manage, await formFields(c))
  if (!form.success) return bookingLinkProblem(c, 'invalid')
  const found = await managedBooking(c, form.output.token)
  if (!found.booking) return bookingLinkProblem(c, found.problem)
  if (!(await cancelBooking(c, found.booking, visitor(found.booking.email), true)))
    return bookingLinkProblem(c, 'gone')
  return backToBooking(c, form.output.token, 'cancelled')
})
