import { Icon } from '../components/page-icon'
import ContactForm from '../../client/islands/contact-form'
import { BUDGETS } from '../../client/schemas/leads'
import { errorTexts } from '../components/form-texts'
import { PageHero } from '../components/page-parts'
import { budgetLabel } from '../data/budgets'
import { unbroken } from '../i18n/format'
import { SERVICES } from '../data/services'
import { usePage } from '../render/context'

export function ContactPage() {
  const { t, config } = usePage()
  return (
    <>
      <PageHero
        title={t('contact.title')}
        subtitle={t('contact.subtitle')}
        crumbs={[{ label: t('nav.contact') }]}
      />
      <section className="py-14">
        <div className="container grid gap-10 lg:grid-cols-[1fr_1.5fr]">
          <aside aria-labelledby="contact-details" className="space-y-6">
            <div className="card">
              <h2 id="contact-details" className="m-0 text-xl font-bold">
                {t('contact.details_title')}
              </h2>
              <ul className="m-0 mt-4 list-none space-y-4 p-0">
                <li className="flex items-center gap-3">
                  <Icon name="mail" className="h-5 w-5 text-brand-600" />
                  <span className="sr-only">{t('footer.email_label')}: </span>
                  <a href={`mailto:${config.email}`} className="text-brand-700">
                    {config.email}
                  </a>
                </li>
                <li className="flex items-center gap-3">
                  <Icon name="phone" className="h-5 w-5 text-brand-600" />
                  <span className="sr-only">{t('footer.phone_label')}: </span>
                  <a
                    href={`tel:${config.phone.replace(/\s/g, '')}`}
                    className="text-brand-700"
                    dir="ltr"
                  >
                    {unbroken(config.phone)}
                  </a>
                </li>
                <li className="flex items-center gap-3">
                  <Icon name="chat" className="h-5 w-5 text-brand-600" />
                  <a
                    href={`https://wa.me/${config.whatsapp}`}
                    target="_blank"
                    rel="noopener noreferrer"
                    className="text-brand-700"
                  >
                    {t('footer.whatsapp_label')} <span dir="ltr">+{config.whatsapp}</span>
                  </a>
                </li>
                <li className="flex items-center gap-3">
                  <Icon name="pin" className="h-5 w-5 text-brand-600" />
                  {t('footer.location')}
                </li>
              </ul>
              <p className="m-0 mt-6 text-sm text-ink-600">{t('contact.hours')}</p>
              <p className="m-0 mt-1 text-sm text-ink-600">{t('contact.response_time')}</p>
            </div>
            <div className="card bg-brand-800 text-white">
              <p className="m-0 text-lg font-semibold">{t('home.cta_title')}</p>
              <a href="/book" data-booking className="btn-accent mt-4">
                {t('common.book_consultation')}
              </a>
            </div>
          </aside>
          <div className="card">
            <h2 className="m-0 text-2xl font-bold">{t('contact.form_title')}</h2>
            <ContactForm
              labels={{
                name: t('contact.name'),
                email: t('contact.email'),
                company: t('contact.company'),
                service: t('contact.service'),
                servicePlaceholder: t('contact.service_placeholder'),
                budget: t('contact.budget'),
                budgetPlaceholder: t('contact.budget_placeholder'),
                message: t('contact.message'),
                messagePlaceholder: t('contact.message_placeholder'),
                privacy: t('contact.privacy_note'),
                submit: t('contact.submit'),
                sending: t('contact.sending'),
                honeypot: t('forms.honeypot'),
                successTitle: t('contact.success_title'),
                successText: t('contact.success_text'),
                sendAnother: t('contact.send_another'),
              }}
              services={[
                ...SERVICES.map((s) => ({
                  value: s.slug,
                  label: t(`services.items.${s.key}.name`),
                })),
                { value: 'other', label: t('contact.other_service') },
              ]}
              budgets={BUDGETS.map((b) => ({
                value: b,
                label: budgetLabel(t, b),
              }))}
              notices={{
                ...errorTexts(t),
                missingText: t('notices.missing_fields'),
                sentTitle: t('notices.contact_title'),
                sentText: t('notices.contact_text'),
              }}
            />
          </div>
        </div>
      </section>
    </>
  )
}
