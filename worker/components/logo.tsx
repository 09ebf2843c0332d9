import { usePage } from '../render/context'

/** The logo, home. `compact`: its name said but not shown on a phone (the desk's bar). */
export function Logo({
  inverted = false,
  compact = false,
}: {
  inverted?: boolean
  compact?: boolean
}) {
  const { t } = usePage()
  return (
    <a
      href="/"
      aria-label={t('nav.logo_label')}
      className={`flex items-center gap-2 whitespace-nowrap text-lg font-extrabold no-underline ${inverted ? 'text-white' : 'text-ink-900'}`}
    >
      <svg viewBox="0 0 32 32" className="h-8 w-8" aria-hidden="true">
        <rect width="32" height="32" rx="8" fill="#2550d9" />
        <path d="M16 5l2.6 8.4L27 16l-8.4 2.6L16 27l-2.6-8.4L5 16l8.4-2.6Z" fill="#fbbf24" />
      </svg>
      <span className={compact ? 'max-sm:sr-only' : 'xl:max-2xl:sr-only'}>
        {t('meta.site_name')}
      </span>
    </a>
  )
}
