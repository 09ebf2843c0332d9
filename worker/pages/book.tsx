import BookingForm from '../../client/islands/booking-form'
import { errorTexts } from '../components/form-texts'
import { PageHero } from '../components/page-parts'
import { usePage } from './context'

/** The built-in booking page; `?embed=1` is the same page inside the scheduling dialog. */
export function BookPage({
  slots,
  agencyTimeZone,
  embed,
}: {
  slots: string[]
  agencyTimeZone: string
  embed: boolean
}) {
  const { t, lang } = usePage()
  const form = (
    <BookingForm
      slots={slots}
      agencyTimeZone={agencyTimeZone}
      lang={lang}
      labels={{
        chooseTime: t('booking.choose_time'),
        timesIn: t('booking.times_in', { zone: '{{zone}}' }),
        noSlots: t('booking.no_slots'),
        yourDetails: t('booking.your_details'),
        name: t('booking.name'),
        email: t('booking.email'),
        notes: t('booking.notes'),
        submit: t('booking.submit'),
        submitting: t('booking.submitting'),
        confirmedTitle: t('booking.confirmed_title'),
        confirmedText: t('booking.confirmed_text', { email: '{{email}}', when: '{{when}}' }),
        addCalendar: t('booking.add_calendar'),
        duration: t('booking.duration'),
        honeypot: t('forms.honeypot'),
      }}
      notices={{
        ...errorTexts(t),
        missingText: t('notices.missing_fields'),
        slotRequired: t('errors.slot_required'),
      }}
    />
  )
  if (embed)
    return (
      <div className="p-4 sm:p-6">
        <h1 className="sr-only">{t('booking.title')}</h1>
        {form}
      </div>
    )
  return (
    <>
      <PageHero
        title={t('booking.title')}
        subtitle={t('booking.subtitle')}
        crumbs={[{ label: t('booking.title') }]}
      />
      <section className="container max-w-4xl pb-16">{form}</section>
    </>
  )
}
