import type { ReactNode } from 'react'
import { Icon } from './page-icon'
import { dirOf, type Lang } from '../../client/lib/languages'
import type { MediaPicture } from '../../client/lib/media-picture'
import { PICTURE_SIZES, pictureSources } from '../content/media-sizes'
import { usePage } from '../render/context'

export interface Crumb {
  label: string
  href?: string
}

/**
 * One of the site's illustrations (public/images/art/<name>.svg, made by `npm run artwork`):
 * a separate file with its size given, so nothing shifts while it loads; lazy unless it is
 * in the first screen.
 */
export function Artwork({
  name,
  alt,
  eager = false,
  className = '',
}: {
  name: string
  alt: string
  eager?: boolean
  className?: string
}) {
  return (
    <img
      src={`/images/art/${name}.svg`}
      width={640}
      height={400}
      alt={alt}
      loading={eager ? undefined : 'lazy'}
      decoding="async"
      className={`block h-auto w-full rounded-2xl ${className}`}
    />
  )
}

/**
 * A piece of content's picture: its cover from the desk (/media/, its own size; the sizes made at
 * upload offered in AVIF and WebP for the width `sizes` says it takes), or else its illustration
 * from before the desk, described by `artworkAlt`; nothing when it has neither. The first
 * picture of a page is `eager` and, where it is the largest thing in the first screen, `high`.
 */
export function ContentPicture({
  cover,
  coverAlt,
  artwork,
  artworkAlt,
  sizes,
  eager = false,
  high = false,
  className = '',
}: {
  cover?: MediaPicture
  coverAlt?: string
  artwork?: string
  artworkAlt: string
  sizes: keyof typeof PICTURE_SIZES
  eager?: boolean
  high?: boolean
  className?: string
}) {
  if (cover) {
    const sources = pictureSources(cover)
    const img = (
      <img
        src={sources?.src ?? `/media/${cover.name}`}
        srcSet={sources?.webp}
        sizes={sources ? PICTURE_SIZES[sizes] : undefined}
        width={cover.width}
        height={cover.height}
        alt={coverAlt ?? ''}
        loading={eager || high ? undefined : 'lazy'}
        fetchPriority={high ? 'high' : undefined}
        decoding={high ? undefined : 'async'}
        className={`block h-auto w-full rounded-2xl object-cover ${className}`}
      />
    )
    if (!sources) return img
    return (
      <picture>
        <source type="image/avif" srcSet={sources.avif} sizes={PICTURE_SIZES[sizes]} />
        {img}
      </picture>
    )
  }
  if (!artwork) return null
  return <Artwork name={artwork} alt={artworkAlt} eager={eager || high} className={className} />
}

/** The top band of an inner page: breadcrumbs, the page's h1 and its lead text. */
export function PageHero({
  title,
  subtitle,
  crumbs = [],
  picture,
  textLang,
  children,
}: {
  title: string
  subtitle?: string
  crumbs?: Crumb[]
  /** The title and subtitle's language, where it is not the page's (an untranslated article). */
  textLang?: Lang
  /** An illustration beside the text (below it on narrow screens). */
  picture?: ReactNode
  children?: ReactNode
}) {
  const { t } = usePage()
  const other = textLang ? { lang: textLang, dir: dirOf(textLang) } : {}
  const text = (
    <>
      <h1
        className="m-0 max-w-3xl text-4xl font-extrabold tracking-tight text-ink-900 sm:text-5xl"
        {...other}
      >
        {title}
      </h1>
      {subtitle && (
        <p className="m-0 mt-4 max-w-2xl text-lg text-ink-700" {...other}>
          {subtitle}
        </p>
      )}
      {children}
    </>
  )
  return (
    <section className="bg-gradient-to-b from-brand-50 to-white">
      <div className="container py-12 sm:py-16">
        {crumbs.length > 0 && (
          <nav aria-label={t('common.breadcrumb')} className="mb-6 text-sm">
            <ol className="m-0 flex list-none flex-wrap items-center gap-1 p-0 text-ink-600">
              {[{ label: t('common.home'), href: '/' }, ...crumbs].map((crumb, i, all) => (
                <li key={i} className="flex items-center gap-1">
                  {crumb.href && i < all.length - 1 ? (
                    <a
                      href={crumb.href}
                      className="text-brand-700 underline-offset-2 hover:underline"
                    >
                      {crumb.label}
                    </a>
                  ) : (
                    <span aria-current="page">{crumb.label}</span>
                  )}
                  {i < all.length - 1 && <span aria-hidden="true">/</span>}
                </li>
              ))}
            </ol>
          </nav>
        )}
        {picture ? (
          <div className="grid items-center gap-10 lg:grid-cols-[1fr_24rem]">
            <div>{text}</div>
            <div className="max-w-md">{picture}</div>
          </div>
        ) : (
          text
        )}
      </div>
    </section>
  )
}

export function Section({
  title,
  eyebrow,
  subtitle,
  id,
  className = '',
  children,
}: {
  title?: string
  eyebrow?: string
  subtitle?: string
  id?: string
  className?: string
  children: ReactNode
}) {
  const headingId = id ? `${id}-title` : undefined
  return (
    <section id={id} aria-labelledby={headingId} className={`py-14 sm:py-20 ${className}`}>
      <div className="container">
        {eyebrow && <p className="eyebrow m-0 mb-2">{eyebrow}</p>}
        {title && (
          <h2 id={headingId} className="section-title m-0">
            {title}
          </h2>
        )}
        {subtitle && <p className="m-0 mt-3 max-w-2xl text-lg text-ink-600">{subtitle}</p>}
        <div className={title ? 'mt-10' : ''}>{children}</div>
      </div>
    </section>
  )
}

export function CheckList({ items, className = '' }: { items: string[]; className?: string }) {
  return (
    <ul className={`m-0 list-none space-y-3 p-0 ${className}`}>
      {items.map((item, i) => (
        <li key={i} className="flex gap-3">
          <Icon name="check" className="mt-0.5 h-5 w-5 shrink-0 text-brand-600" />
          <span>{item}</span>
        </li>
      ))}
    </ul>
  )
}

/** Closing call to action: talk to us, or book the free consultation. */
export function CtaBand({ title, text }: { title: string; text: string }) {
  const { t } = usePage()
  return (
    <section className="bg-brand-800 text-white">
      <div className="container flex flex-col items-start gap-6 py-14 md:flex-row md:items-center md:justify-between">
        <div className="max-w-2xl">
          <h2 className="m-0 text-3xl font-bold">{title}</h2>
          <p className="m-0 mt-3 text-lg text-brand-100">{text}</p>
        </div>
        <div className="flex flex-wrap gap-3">
          <a href="/book" data-booking className="btn-accent">
            {t('common.book_consultation')}
          </a>
          <a href="/contact" className="btn-outline text-white">
            {t('common.talk_to_us')}
          </a>
        </div>
      </div>
    </section>
  )
}

export function Faqs({ items }: { items: { q: string; a: string }[] }) {
  return (
    <div className="divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white">
      {items.map((item, i) => (
        <details key={i} className="group px-5 py-4">
          <summary className="flex items-center justify-between gap-4 font-semibold text-ink-900">
            {item.q}
            <Icon
              name="chevron"
              className="h-5 w-5 shrink-0 transition-transform group-open:rotate-180"
            />
          </summary>
          <p className="m-0 mt-3 leading-relaxed text-ink-700">{item.a}</p>
        </details>
      ))}
    </div>
  )
}
