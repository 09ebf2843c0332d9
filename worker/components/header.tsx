import { Icon } from './page-icon'
import { LANGS, LANGUAGE_NAMES } from '../../client/lib/languages'
import { langHref, usePage } from '../render/context'
import { AccountArea, SignOutForm } from './account-area'
import { Logo } from './logo'
import { SERVICES_MENU } from '../data/services'
import { navigation } from '../routes'

const MAIN_NAV = navigation('main')

const isCurrent = (path: string, href: string) =>
  href === '/' ? path === '/' : path === href || path.startsWith(href + '/')

/** uno.config.ts */
const linkClass = 'nav-link'

/** Sticky site navigation (SPEC §2). Menus are <details> so they work without JavaScript. */
export function Header() {
  const { t, path } = usePage()
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white">
      <div className="container relative flex h-16 items-center justify-between gap-4">
        <Logo />
        <nav aria-label={t('nav.main_label')} className="hidden xl:block">
          <ul className="m-0 flex list-none items-center gap-0.5 p-0">
            {MAIN_NAV.map((item) => (
              <li key={item.href}>
                {item.href === '/services' ? (
                  <ServicesMenu />
                ) : (
                  <a
                    href={item.href}
                    className={linkClass}
                    aria-current={isCurrent(path, item.href) ? 'page' : undefined}
                  >
                    {t(item.key)}
                  </a>
                )}
              </li>
            ))}
          </ul>
        </nav>
        <div className="hidden items-center gap-2 xl:flex">
          <LanguageMenu />
          <AccountArea />
        </div>
        <MobileMenu />
      </div>
    </header>
  )
}

/**
 * The bar of the agency's own pages (the desk): the logo back to the site, the language, who
 * is signed in and Sign Out. Nothing for visitors: no menus of services, no calls to action.
 */
export function WorkspaceBar() {
  const { user } = usePage()
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="container flex h-14 items-center justify-between gap-4">
        {/* on a phone the bar holds the mark, the language and Sign Out on one line */}
        <Logo compact />
        <div className="flex items-center gap-2">
          <LanguageMenu />
          {user && (
            <>
              <span className="hidden text-sm text-ink-600 sm:inline">
                <bdi>{user.email}</bdi>
              </span>
              <SignOutForm button="btn-ghost whitespace-nowrap px-3 py-1.5 text-sm" />
            </>
          )}
        </div>
      </div>
    </header>
  )
}

function ServicesMenu() {
  const { t, path } = usePage()
  return (
    <details data-menu className="relative">
      <summary
        className={linkClass + ' flex items-center gap-1'}
        aria-current={isCurrent(path, '/services') ? 'page' : undefined}
      >
        {t('nav.services')}
        <Icon name="chevron" className="chevron h-4 w-4 transition-transform" />
      </summary>
      <ul className="absolute start-0 top-full z-50 m-0 mt-2 w-64 list-none rounded-xl border border-slate-200 bg-white p-2 shadow-lg">
        <li>
          <a href="/services" className={linkClass}>
            {t('nav.all_services')}
          </a>
        </li>
        {SERVICES_MENU.map((item) => (
          <li key={item.href}>
            <a
              href={item.href}
              className={linkClass}
              aria-current={path === item.href ? 'page' : undefined}
            >
              {t(item.key)}
            </a>
          </li>
        ))}
      </ul>
    </details>
  )
}

function LanguageLinks({ className }: { className: string }) {
  const { lang, path } = usePage()
  return (
    <ul className={className}>
      {LANGS.map((l) => (
        <li key={l}>
          <a
            href={langHref(path, l)}
            hrefLang={l}
            lang={l}
            data-lang={l}
            className={linkClass}
            aria-current={l === lang ? 'true' : undefined}
          >
            {LANGUAGE_NAMES[l]}
          </a>
        </li>
      ))}
    </ul>
  )
}

function LanguageMenu() {
  const { t, lang } = usePage()
  return (
    <details data-menu className="relative">
      <summary className={linkClass + ' flex items-center gap-1.5'}>
        <Icon name="globe" className="h-4 w-4" />
        <span className="sr-only">
          {t('nav.language')}: {LANGUAGE_NAMES[lang]}
        </span>
        <span aria-hidden="true" className="uppercase">
          {lang}
        </span>
        <Icon name="chevron" className="chevron h-4 w-4 transition-transform" />
      </summary>
      <LanguageLinks className="absolute end-0 top-full z-50 m-0 mt-2 w-44 list-none rounded-xl border border-slate-200 bg-white p-2 shadow-lg" />
    </details>
  )
}

function MobileMenu() {
  const { t, path } = usePage()
  return (
    <details data-menu className="xl:hidden">
      <summary className="flex items-center gap-2 rounded-lg border border-slate-300 px-3 py-2 text-sm font-semibold text-ink-900">
        <Icon name="menu" />
        {t('nav.menu')}
      </summary>
      <div className="absolute inset-x-0 top-full z-50 max-h-[calc(100vh-4rem)] overflow-y-auto border-b border-slate-200 bg-white px-4 pb-6 shadow-lg">
        <nav aria-label={t('nav.mobile_label')}>
          <ul className="m-0 list-none p-0 py-2">
            {MAIN_NAV.map((item) => (
              <li key={item.href}>
                <a
                  href={item.href}
                  className={linkClass}
                  aria-current={isCurrent(path, item.href) ? 'page' : undefined}
                >
                  {t(item.key)}
                </a>
                {item.href === '/services' && (
                  <ul className="m-0 list-none border-s-2 border-slate-200 p-0 ps-3 ms-3">
                    {SERVICES_MENU.map((sub) => (
                      <li key={sub.href}>
                        <a
                          href={sub.href}
                          className={linkClass}
                          aria-current={path === sub.href ? 'page' : undefined}
                        >
                          {t(sub.key)}
                        </a>
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            ))}
          </ul>
        </nav>
        <p className="m-0 mt-2 px-3 text-xs font-semibold uppercase tracking-wider text-ink-500">
          {t('nav.language')}
        </p>
        <LanguageLinks className="m-0 grid list-none grid-cols-2 gap-1 p-0 py-2" />
        <div className="mt-2 flex flex-col gap-2 border-t border-slate-200 pt-4">
          <AccountArea inline />
        </div>
      </div>
    </details>
  )
}
