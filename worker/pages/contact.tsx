import { Icon } from '../../client/components/icon'
import { PageHero } from '../components/page-parts'
import { SERVICES } from '../data/services'
import { usePage } from './context'

const BUDGETS = ['under_1k', '1k_5k', '5k_15k', 'over_15k']
const fieldClass = 'w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-ink-900'
const labelClass = 'mb-1 block text-sm font-medium text-ink-700'

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
                    {config.phone}
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
              <a href="/contact" data-booking className="btn-accent mt-4">
                {t('common.book_consultation')}
              </a>
            </div>
          </aside>
          <div className="card">
            <h2 className="m-0 text-2xl font-bold">{t('contact.form_title')}</h2>
            <form method="post" action="/api/contact" className="mt-6 grid gap-4 sm:grid-cols-2">
              <div>
                <label htmlFor="contact-name" className={labelClass}>
                  {t('contact.name')}
                </label>
                <input
                  id="contact-name"
                  name="name"
                  required
                  maxLength={100}
                  autoComplete="name"
                  className={fieldClass}
                />
              </div>
              <div>
                <label htmlFor="contact-email" className={labelClass}>
                  {t('contact.email')}
                </label>
                <input
                  id="contact-email"
                  name="email"
                  type="email"
                  required
                  maxLength={254}
                  autoComplete="email"
                  className={fieldClass}
                />
              </div>
              <div>
                <label htmlFor="contact-company" className={labelClass}>
                  {t('contact.company')}
                </label>
                <input
                  id="contact-company"
                  name="company"
                  maxLength={120}
                  autoComplete="organization"
                  className={fieldClass}
                />
              </div>
              <div>
                <label htmlFor="contact-service" className={labelClass}>
                  {t('contact.service')}
                </label>
                <select
                  id="contact-service"
                  name="service"
                  required
                  className={fieldClass}
                  defaultValue=""
                >
                  <option value="" disabled>
                    {t('contact.service_placeholder')}
                  </option>
                  {SERVICES.map((s) => (
                    <option key={s.slug} value={s.slug}>
                      {t(`services.items.${s.key}.name`)}
                    </option>
                  ))}
                  <option value="other">{t('contact.other_service')}</option>
                </select>
              </div>
              <div className="sm:col-span-2">
                <label htmlFor="contact-budget" className={labelClass}>
                  {t('contact.budget')}
                </label>
                <select id="contact-budget" name="budget" className={fieldClass} defaultValue="">
                  <option value="">{t('contact.budget_placeholder')}</option>
                  {BUDGETS.map((b) => (
                    <option key={b} value={b}>
                      {t(`contact.budgets.${b}`)}
                    </option>
                  ))}
                </select>
              </div>
              <div className="sm:col-span-2">
                <label htmlFor="contact-message" className={labelClass}>
                  {t('contact.message')}
                </label>
                <textarea
                  id="contact-message"
                  name="message"
                  required
                  rows={6}
                  maxLength={5000}
                  placeholder={t('contact.message_placeholder')}
                  className={fieldClass}
                />
              </div>
              <p className="m-0 text-sm text-ink-600 sm:col-span-2">{t('contact.privacy_note')}</p>
              <button type="submit" className="btn-primary sm:col-span-2 sm:justify-self-start">
                {t('contact.submit')}
              </button>
            </form>
          </div>
        </div>
      </section>
    </>
  )
}
