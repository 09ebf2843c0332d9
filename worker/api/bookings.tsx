import { Hono } from 'hono'
import { BookingSchema } from '../../client/schemas/booking'
import { readAvailability } from '../booking/slots'
import type { AppEnv } from '../env'
import { formGuard } from '../middleware/form-guard'
import { describeSlot, icsPath } from '../booking/invitation'
import { book, currentSlots } from '../services/bookings'
import { formResult, isBot, parse, store } from './forms'

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

  const saved = await store(c, mode, () =>
    book(c, {
      slotStart: slot,
      name: data.name,
      email: data.email,
      notes: data.notes,
      timeZone,
      language: c.var.lang,
    }),
  )
  if (!saved.ok) return saved.res
  if ('taken' in saved.value) {
    const error = t('booking.slot_taken')
    const slots = free.value.slots.filter((s) => s !== slot)
    return mode === 'json'
      ? c.json({ error, slots }, 409)
      : formResult(c, 409, t('notices.error_title'), error, {
          href: '/book',
          label: t('booking.choose_time'),
        })
  }

  // the confirmation (with the invitation) and the agency's notice are in the outbox with it
  const booking = saved.value.booking
  const when = describeSlot(slot, c.var.lang, timeZone)
  const answer = { start: slot, when, timeZone, icsUrl: icsPath(booking.token) }
  if (mode === 'json') return c.json({ booking: answer })
  return formResult(
    c,
    200,
    t('booking.confirmed_title'),
    t('booking.confirmed_text', { email: booking.email, when }),
    {
      href: answer.icsUrl,
      label: t('booking.add_calendar'),
    },
  )
})
