import { reactRenderer } from '@hono/react-renderer'
import type { Context, MiddlewareHandler } from 'hono'
import { deleteCookie, getCookie } from 'hono/cookie'
import clientAssets from 'virtual:client-assets'
import { dirOf, LANGS, type Lang } from '../../client/lib/languages'
import { CARD_HEIGHT, CARD_WIDTH } from '../../client/lib/media-picture'
import { consentOf, type Consent } from '../render/consent'
import { RENDER_HEADER, SOURCE_HEADER } from '../render/cache-key'
import { FLASH_COOKIE } from '../render/flash'
import { hasTrackers } from '../config'
import { secretRouteOf } from '../routes'
import { Header, WorkspaceBar } from '../components/header'
import { Splash } from '../components/overlays'
import { NoticeHost } from '../components/notice-host'
import { PageTail } from './page-tail'
import { islandHtml } from '../render/island-html'
import { waitUntilOf } from '../render/part-html'
import { IslandHtmlContext } from '../../client/island'
import type { AppEnv } from '../env'
import { langHref, pageUrl, usePage } from '../render/context'
import { jsonLdScript, OG_LOCALE, ogImagePath, organization, type PageImage } from '../seo'

declare module '@hono/react-renderer' {
  interface Props {
    title: string
    description: string
    /** Canonical path when it differs from the request's (aliases). */
    canonicalPath?: string
    /** Only the page itself: no navigation, footer or overlays (the booking page in its dialog). */
    bare?: boolean
    /**
     * The agency's own pages (the desk): a slim bar of their own instead of the site's
     * navigation, footer and visitor overlays (WhatsApp, booking, welcome popup, splash).
     */
    workspace?: boolean
    /** Social card picture of the page type; default the generic one. */
    image?: PageImage
    ogType?: 'website' | 'article'
    /** schema.org nodes describing the page (the organization is always added). */
    jsonLd?: Record<string, unknown>[]
    noindex?: boolean
    /**
     * What real visitors' speed is counted under (client/enhance/vitals.ts): the page's path,
     * or for an error page "(not found)" or "(error)", as page views count them.
     */
    vitalsPath?: string
    /** The languages the page exists in (an article's translations); default all six. */
    languages?: readonly Lang[]
    /** The language of what it shows, where that is not the page's (an untranslated article). */
    contentLang?: Lang
    /** An article's dates, section and author, for the card of og:type article. */
    article?: ArticleMeta
  }
}

/** Open Graph's article properties (https://ogp.me/#type_article; its author would be a profile's URL, which we have none of). */
interface ArticleMeta {
  published: string
  modified: string
  section: string
}

/** Reads and forgets the notice the previous response left for this page. */
function takeFlash(c: Context<AppEnv>): string | undefined {
  const raw = getCookie(c, FLASH_COOKIE)
  if (!raw) return undefined
  deleteCookie(c, FLASH_COOKIE, { path: '/' })
  try {
    const notice = JSON.parse(raw) as { title?: unknown }
    return typeof notice.title === 'string' ? JSON.stringify(notice) : undefined
  } catch {
    return undefined
  }
}

/** Streams every page inside the site's document: head, navigation, main, footer. */
export function renderer(): MiddlewareHandler<AppEnv> {
  return async function renderer(c, next) {
    await reactRenderer(
      ({
        children,
        title,
        description,
        canonicalPath,
        bare,
        workspace,
        image,
        ogType,
        jsonLd,
        noindex,
        vitalsPath,
        languages,
        contentLang,
        article,
      }) => (
        // a page the edge cache keeps is every anonymous visitor's: its islands can be pasted
        <IslandHtmlContext.Provider value={c.get('pageOutput') ? islandHtml(waitUntilOf(c)) : null}>
          <Document
            title={title}
            description={description}
            canonicalPath={canonicalPath}
            bare={bare}
            workspace={workspace}
            image={image ?? 'page'}
            ogType={ogType ?? 'website'}
            jsonLd={jsonLdScript([organization(c), ...(jsonLd ?? [])])}
            noindex={noindex || c.var.noindex}
            vitalsPath={vitalsPath}
            languages={languages ?? LANGS}
            contentLang={contentLang}
            article={article}
            quiet={c.var.quiet}
            consent={consentOf(c)}
            flash={takeFlash(c)}
            accountUnavailable={c.var.sessionUnchecked}
            langSource={c.var.langSource}
          >
            {children}
          </Document>
        </IslandHtmlContext.Provider>
      ),
      {
        stream: true,
        readableStreamOptions: {
          // read when the page renders, after the edge cache may have put its placeholder in
          get nonce() {
            return c.get('secureHeadersNonce')
          },
          get output() {
            return c.get('pageOutput')
          },
          // Scripts start as soon as the shell arrives, not after the whole stream.
          bootstrapModules: clientAssets.scripts,
        },
      },
    )(c, next)
    if (!c.res.headers.get('Content-Type')?.startsWith('text/html')) return
    // content from the snapshot, D1 not answering (content/live.ts): said, and kept by no one
    if (c.var.contentSource) {
      c.res.headers.set(SOURCE_HEADER, c.var.contentSource)
      c.res.headers.set('Cache-Control', 'no-store')
    }
    // pages outside the edge cache say so too
    if (!c.res.headers.has(RENDER_HEADER)) c.res.headers.set(RENDER_HEADER, 'bypass')
    // Each page carries a nonce of its own: no shared cache may hand it to someone else, and the
    // browser asks again rather than reuse it (the edge cache sits inside the worker).
    if (!c.res.headers.has('Cache-Control')) c.res.headers.set('Cache-Control', 'private, no-cache')
  }
}

interface DocumentProps {
  title: string
  description: string
  canonicalPath?: string
  bare?: boolean
  workspace?: boolean
  image: PageImage
  ogType: 'website' | 'article'
  jsonLd: string
  noindex?: boolean
  vitalsPath?: string
  languages: readonly Lang[]
  contentLang?: Lang
  article?: ArticleMeta
  /** No splash, welcome popup or floating buttons: a page the visitor came to for one errand. */
  quiet?: boolean
  consent: Consent
  /** A notice carried over from the previous request (signed in, signed out). */
  flash?: string
  /** The session could not be checked: the page is a visitor's, and says why (auth/session.ts). */
  accountUnavailable?: boolean
  langSource: string
  children: React.ReactNode
}

function Document({
  title,
  description,
  canonicalPath,
  bare = false,
  workspace = false,
  image,
  ogType,
  jsonLd,
  noindex,
  vitalsPath,
  languages,
  contentLang,
  article,
  quiet = false,
  consent,
  flash,
  accountUnavailable,
  langSource,
  children,
}: DocumentProps) {
  const { t, lang, config, path, nonce, user, experimentsRun } = usePage()
  const canonical = canonicalPath ?? path
  const urlIn = (l: string) => pageUrl(config.siteUrl, canonical, l)
  // a card shared from it is in the language of its text
  const shown = contentLang ?? lang
  // never on the agency's own pages (their titles name the people who wrote in), nor on the
  // page of an e-mailed secret (routes.ts `secretLink`): nothing of the trackers is in those
  const trackers = hasTrackers(config) && !workspace && !secretRouteOf(path)
  // a running experiment counts only visitors who said yes: its pages ask too
  const tests = experimentsRun && !workspace && !secretRouteOf(path)
  return (
    <html lang={lang} dir={dirOf(lang)} data-lang-source={langSource}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
        <meta name="description" content={description} />
        <link rel="canonical" href={urlIn(lang)} />
        {languages.map((l) => (
          <link key={l} rel="alternate" hrefLang={l} href={urlIn(l)} />
        ))}
        <link rel="alternate" hrefLang="x-default" href={config.siteUrl + canonical} />
        {(noindex || bare) && <meta name="robots" content="noindex" />}
        <meta property="og:type" content={ogType} />
        <meta property="og:site_name" content={t('meta.site_name')} />
        <meta property="og:title" content={title} />
        <meta property="og:description" content={description} />
        <meta property="og:url" content={urlIn(lang)} />
        <meta property="og:locale" content={OG_LOCALE[shown]} />
        {languages
          .filter((l) => l !== shown)
          .map((l) => (
            <meta key={l} property="og:locale:alternate" content={OG_LOCALE[l]} />
          ))}
        <meta property="og:image" content={config.siteUrl + ogImagePath(image, shown)} />
        <meta property="og:image:width" content={String(CARD_WIDTH)} />
        <meta property="og:image:height" content={String(CARD_HEIGHT)} />
        <meta property="og:image:alt" content={title} />
        {article && (
          <>
            <meta property="article:published_time" content={article.published} />
            <meta property="article:modified_time" content={article.modified} />
            <meta property="article:section" content={article.section} />
          </>
        )}
        <meta name="twitter:card" content="summary_large_image" />
        <meta name="twitter:title" content={title} />
        <meta name="twitter:description" content={description} />
        <meta name="twitter:image" content={config.siteUrl + ogImagePath(image, shown)} />
        <meta name="twitter:image:alt" content={title} />
        <script
          type="application/ld+json"
          nonce={nonce}
          dangerouslySetInnerHTML={{ __html: jsonLd }}
        />
        <meta name="theme-color" content="#1c358a" />
        <link rel="icon" href="/favicon.ico" sizes="48x48" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <link rel="apple-touch-icon" href="/apple-touch-icon.png" />
        <link rel="manifest" href={langHref('/manifest.webmanifest', lang)} />
        <link
          rel="alternate"
          type="application/rss+xml"
          title={t('blog.title')}
          href={`/blog/rss.xml?lang=${lang}`}
        />
        {clientAssets.fonts.map((href) => (
          <link key={href} rel="preload" as="font" type="font/woff2" href={href} crossOrigin="" />
        ))}
        {clientAssets.styles.map((href) => (
          <link key={href} rel="stylesheet" href={href} />
        ))}
      </head>
      <body
        className="min-h-screen bg-white font-sans text-ink-900 antialiased"
        data-trackers={trackers ? JSON.stringify(config.trackers) : undefined}
        data-consent={trackers || tests ? consent : undefined}
        data-flash={flash}
        data-session={user ? user.email : ''}
        // what a form's button says while it is sent (client/enhance/busy-forms.ts)
        data-busy-text={t('forms.sending')}
        // real visitors' speed is measured on the public pages only (client/enhance/vitals.ts)
        data-vitals={bare || workspace ? undefined : (vitalsPath ?? path)}
      >
        {bare ? (
          <main id="main">{children}</main>
        ) : workspace ? (
          <>
            <a href="#main" className="skip-link btn-primary">
              {t('nav.skip')}
            </a>
            <WorkspaceBar />
            <main id="main" tabIndex={-1} className="outline-none">
              {children}
            </main>
          </>
        ) : (
          <>
            {!quiet && <Splash />}
            <a href="#main" className="skip-link btn-primary">
              {t('nav.skip')}
            </a>
            <progress id="nav-progress" hidden aria-label={t('nav.loading')} />
            <Header />
            {accountUnavailable && (
              <p
                role="status"
                className="m-0 bg-amber-50 px-4 py-2 text-center text-sm text-amber-900"
              >
                {t('outage.account_unavailable')}
              </p>
            )}
            <main id="main" tabIndex={-1} className="outline-none">
              {children}
            </main>
            <PageTail quiet={quiet} consent={consent} trackers={trackers} tests={tests} />
          </>
        )}
        <NoticeHost />
      </body>
    </html>
  )
}
