import type { Context } from 'hono'
import { Field, Honeypot, TextAreaField } from '../../client/components/field'
import { zoneName } from '../../client/islands/booking-form'
import { ChallengeSlot, challengeAttrs, ResumeNote, ResumeScript } from './challenge'
import { PageHero } from './page-parts'
import { slotChoices } from './slot-options'
import type { AppEnv } from '../env'
import { usePage } from '../render/context'

/** What the visitor typed into the booking form, as it came (already checked by the schema). */
export interface TypedBooking {
  slot: string
  name: string
  email: string
  notes?: string
  /** The zone the times were shown in: the form's hidden field, or the agency's. */
  timeZone: string
}

/**
 * The answer to a booking posted without the challenge's token (pressed before the page's
 * scripts came, or without JavaScript): nothing was booked yet, with the booking form again as
 * the visitor filled it in. The form posts where the booking page's did and carries the
 * challenge (client/enhance/challenge.ts); once the page's scripts run it sends itself
 * (ResumeScript) and books the same time with the same details, nothing typed again. Without
 * JavaScript the page says why nothing was booked, and that JavaScript is needed.
 */
function NotBookedPage({ typed, slots }: { typed: TypedBooking; slots: string[] }) {
  const { t, lang, challenge } = usePage()
  return (
    <>
      <PageHero title={t('booking.not_booked_title')}>
        <ResumeNote text={t('booking.not_booked_text')} />
      </PageHero>
      <section className="container max-w-3xl space-y-6 pb-16">
        <form
          method="post"
          action="/api/bookings"
          className="card space-y-4"
          {...challengeAttrs(challenge, t, 'booking', true)}
        >
          <h2 className="m-0 text-xl font-bold">{t('booking.not_booked_again')}</h2>
          <input type="hidden" name="timeZone" value={typed.timeZone} />
          <div>
            <label htmlFor="again-slot" className="mb-1 block text-sm font-medium text-ink-700">
              {t('booking.choose_time')}
            </label>
            <select
              id="again-slot"
              name="slot"
              required
              defaultValue={typed.slot}
              aria-describedby="again-zone"
              className="w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-ink-900"
            >
              {slotChoices(t, lang, typed.timeZone)(slots, typed.slot, false)}
            </select>
            <p id="again-zone" className="m-0 mt-1 text-xs text-ink-600">
              {t('booking.manage_zone', { zone: zoneName(lang, typed.timeZone) })}
            </p>
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field
              id="again-name"
              name="name"
              label={t('booking.name')}
              autoComplete="name"
              required
              maxLength={100}
              defaultValue={typed.name}
            />
            <Field
              id="again-email"
              name="email"
              type="email"
              label={t('booking.email')}
              autoComplete="email"
              required
              maxLength={254}
              defaultValue={typed.email}
            />
          </div>
          <TextAreaField
            id="again-notes"
            name="notes"
            label={t('booking.notes')}
            rows={3}
            maxLength={1000}
            defaultValue={typed.notes ?? ''}
          />
          <Honeypot label={t('forms.honeypot')} />
          <ChallengeSlot />
          <button type="submit" className="btn-primary">
            {t('booking.submit')}
          </button>
        </form>
        <ResumeScript />
        <p className="m-0 text-ink-700">
          {t('booking.not_booked_contact')}{' '}
          <a href="/contact" className="font-semibold text-brand-700">
            {t('booking.not_booked_contact_link')}
          </a>
        </p>
      </section>
    </>
  )
}

/**
 * 403, as the challenge's other refusals: the booking was not made, and nothing was stored. An
 * errand page (`quiet`): no floating buttons over its form.
 */
export function notBooked(c: Context<AppEnv>, typed: TypedBooking, slots: string[]) {
  const t = c.var.t
  c.status(403)
  c.header('Cache-Control', 'no-store')
  c.set('quiet', true)
  return c.render(<NotBookedPage typed={typed} slots={slots} />, {
    title: `${t('booking.not_booked_title')} | ${t('meta.title_suffix')}`,
    description: t('booking.not_booked_text'),
  }) as Response | Promise<Response>
}
