import { Icon } from './page-icon'
import { unbroken } from '../i18n/format'
import type { MessageKey } from '../i18n/translator'
import { usePage } from '../render/context'
import { Logo } from './logo'
import { TRUSTED_PLATFORMS } from '../data/platforms'
import { navigation } from '../routes'
import { NewsletterBox } from './newsletter-box'

const FOOTER_MAIN = navigation('footerMain')
const FOOTER_RESOURCES = navigation('footerResources')

const SOCIAL = {
  instagram: {
    label: 'Instagram',
    d: 'M7 2h10a5 5 0 0 1 5 5v10a5 5 0 0 1-5 5H7a5 5 0 0 1-5-5V7a5 5 0 0 1 5-5Z M12 16a4 4 0 1 0 0-8 4 4 0 0 0 0 8Z M17.5 6.5h.01',
  },
  facebook: {
    label: 'Facebook',
    d: 'M18 2h-3a5 5 0 0 0-5 5v3H7v4h3v8h4v-8h3l1-4h-4V7a1 1 0 0 1 1-1h3Z',
  },
  twitter: { label: 'Twitter', d: 'M4 4l16 16 M20 4 4 20' },
  linkedin: {
    label: 'LinkedIn',
    d: 'M4 3h16a1 1 0 0 1 1 1v16a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1Z M8 10v7 M8 7v.01 M12 17v-4a2 2 0 0 1 4 0v4 M12 10v7',
  },
  tiktok: {
    label: 'TikTok',
    d: 'M16 3c.4 2.6 2 4.2 4.5 4.5v3.2c-1.7 0-3.2-.5-4.5-1.4V15a6 6 0 1 1-6-6v3.3A2.8 2.8 0 1 0 12.8 15V3Z',
  },
} as const

const BADGES = [
  { key: 'ssl', icon: 'lock' },
  { key: 'fiverr', icon: 'badge' },
  { key: 'privacy', icon: 'shield' },
  { key: 'money_back', icon: 'refund' },
] as const

const headingClass = 'm-0 mb-4 text-sm font-semibold uppercase tracking-wider text-white'
const linkClass = 'text-slate-300 no-underline hover:text-white hover:underline'
const badgeClass = 'flex items-center gap-2 rounded-full border border-white/15 px-3 py-1.5'

/** Site footer (SPEC §2). */
/** `consentSettings`: the page asks for consent (trackers, an experiment): the link reopens it. */
export function Footer({ consentSettings }: { consentSettings: boolean }) {
  const { t, config } = usePage()
  // oxlint-disable-next-line react/purity -- rendered on the server only, once per request
  const year = new Date().getUTCFullYear()
  return (
    <footer className="bg-ink-900 text-slate-300">
      <div className="container grid grid-cols-1 gap-10 py-14 md:grid-cols-2 lg:grid-cols-[1.4fr_1fr_1fr_1.4fr]">
        <div>
          <Logo inverted />
          <p className="mt-4 text-sm leading-relaxed">{t('footer.about_text')}</p>
          <h2 className="m-0 mb-3 mt-6 text-sm font-semibold text-white">{t('footer.follow')}</h2>
          <ul className="m-0 flex list-none gap-2 p-0">
            {(Object.keys(SOCIAL) as (keyof typeof SOCIAL)[]).map((key) => (
              <li key={key}>
                <a
                  href={config.social[key]}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="flex h-11 w-11 items-center justify-center rounded-full bg-white/10 text-white hover:bg-brand-600"
                >
                  <svg
                    viewBox="0 0 24 24"
                    className="h-5 w-5"
                    aria-hidden="true"
                    fill="none"
                    stroke="currentColor"
                    strokeWidth={2}
                    strokeLinecap="round"
                    strokeLinejoin="round"
                  >
                    <path d={SOCIAL[key].d} />
                  </svg>
                  <span className="sr-only">
                    {SOCIAL[key].label} {t('footer.new_tab')}
                  </span>
                </a>
              </li>
            ))}
          </ul>
        </div>
        <LinkColumn id="footer-main" title={t('footer.quick_links')} links={FOOTER_MAIN} />
        <LinkColumn id="footer-resources" title={t('footer.resources')} links={FOOTER_RESOURCES} />
        <div>
          <h2 className={headingClass}>{t('footer.contact_info')}</h2>
          <ul className="m-0 list-none space-y-3 p-0 text-sm">
            <li className="flex items-center gap-2">
              <Icon name="mail" className="h-4 w-4 shrink-0" />
              <span className="sr-only">{t('footer.email_label')}: </span>
              <a href={`mailto:${config.email}`} className={linkClass + ' break-all'}>
                {config.email}
              </a>
            </li>
            <li className="flex items-center gap-2">
              <Icon name="phone" className="h-4 w-4 shrink-0" />
              <span className="sr-only">{t('footer.phone_label')}: </span>
              <a href={`tel:${config.phone.replace(/\s/g, '')}`} className={linkClass} dir="ltr">
                {unbroken(config.phone)}
              </a>
            </li>
            <li className="flex items-center gap-2">
              <Icon name="chat" className="h-4 w-4 shrink-0" />
              <span>{t('footer.whatsapp_label')}: </span>
              <a
                href={`https://wa.me/${config.whatsapp}`}
                target="_blank"
                rel="noopener noreferrer"
                className={linkClass}
                dir="ltr"
              >
                +{config.whatsapp}
              </a>
            </li>
            <li className="flex items-center gap-2">
              <Icon name="pin" className="h-4 w-4 shrink-0" />
              {t('footer.location')}
            </li>
          </ul>
          <NewsletterBox />
        </div>
      </div>
      <div className="border-t border-white/10">
        <div className="container flex flex-col gap-6 py-8">
          <div>
            <h2 className="sr-only">{t('footer.badges_label')}</h2>
            <ul className="m-0 flex list-none flex-wrap gap-3 p-0 text-xs font-medium">
              {BADGES.map((b) => {
                const badge = (
                  <>
                    <Icon name={b.icon} className="h-4 w-4 text-accent-400" />
                    {t(`footer.badges.${b.key}`)}
                  </>
                )
                return (
                  <li key={b.key} className="flex">
                    {b.key === 'fiverr' ? (
                      // the agency's seller profile (FIVERR_URL)
                      <a
                        href={config.fiverrUrl}
                        target="_blank"
                        rel="noopener noreferrer"
                        className={`${badgeClass} text-slate-200 no-underline hover:border-white/40 hover:text-white hover:underline`}
                      >
                        {badge}
                        <span className="sr-only"> {t('footer.new_tab')}</span>
                      </a>
                    ) : (
                      <span className={badgeClass}>{badge}</span>
                    )}
                  </li>
                )
              })}
            </ul>
          </div>
          <div>
            <h2 className="m-0 mb-2 text-xs font-semibold uppercase tracking-wider text-slate-400">
              {t('footer.platforms_title')}
            </h2>
            <ul className="m-0 flex list-none flex-wrap gap-x-6 gap-y-2 p-0 text-sm font-semibold text-slate-200">
              {TRUSTED_PLATFORMS.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          </div>
          <p className="m-0 flex flex-wrap gap-x-6 gap-y-2 text-xs text-slate-400">
            <span>
              © {year} {t('meta.site_name')}. {t('footer.rights')}
            </span>
            {consentSettings && (
              <a
                href="/privacy-policy#consent"
                data-consent-settings
                className="text-slate-300 underline hover:text-white"
              >
                {t('consent.settings')}
              </a>
            )}
          </p>
        </div>
      </div>
    </footer>
  )
}

function LinkColumn({
  id,
  title,
  links,
}: {
  id: string
  title: string
  links: readonly { key: MessageKey; href: string }[]
}) {
  const { t } = usePage()
  return (
    <nav aria-labelledby={id}>
      <h2 id={id} className={headingClass}>
        {title}
      </h2>
      <ul className="m-0 list-none space-y-2 p-0 text-sm">
        {links.map((item) => (
          <li key={item.href}>
            <a href={item.href} className={linkClass}>
              {t(item.key)}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  )
}
