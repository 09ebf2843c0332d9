import { Icon } from '../components/page-icon'
import { ContentPicture, CtaBand, PageHero } from '../components/page-parts'
import { formatDay, languageName } from '../i18n/format'
import { dirOf } from '../../client/lib/languages'
import { categoriesOf, readingMinutes, type Article } from '../content/live'
import { usePage } from '../render/context'

function useDates() {
  const { lang } = usePage()
  return (iso: string) => formatDay(lang, iso)
}

/**
 * The article's picture: its cover from the desk, or its illustration from before the desk. On
 * the article's page it is the first thing seen (`page`); the first card of a list is fetched
 * first too.
 */
function ArticleImage({
  a,
  page = false,
  first = false,
}: {
  a: Article
  page?: boolean
  first?: boolean
}) {
  const { t } = usePage()
  return (
    <ContentPicture
      cover={a.shared.cover}
      coverAlt={a.texts.cover_alt}
      artwork={a.shared.artwork}
      artworkAlt={t('blog.image_alt', { title: a.texts.title })}
      sizes={page ? 'article' : 'card'}
      high={page || first}
      className={page ? 'mb-8' : 'mb-5'}
    />
  )
}

const day = (iso: string) => iso.slice(0, 10)

function PostMetaLine({ a, withCategory = true }: { a: Article; withCategory?: boolean }) {
  const { t } = usePage()
  const date = useDates()
  const published = day(a.published)
  return (
    <p className="m-0 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-ink-600">
      {withCategory && (
        <a
          href={`/blog?category=${a.shared.category}`}
          className="rounded-full bg-brand-50 px-3 py-1 text-xs font-semibold text-brand-700 no-underline hover:underline"
        >
          {a.texts.category_label}
        </a>
      )}
      <time dateTime={published}>{date(published)}</time>
      <span>{t.plural('blog.reading_time', readingMinutes(a.texts.words))}</span>
    </p>
  )
}

function PostCard({ a, first = false }: { a: Article; first?: boolean }) {
  const { t } = usePage()
  return (
    <li>
      <article className="card flex h-full flex-col">
        <ArticleImage a={a} first={first} />
        <PostMetaLine a={a} />
        <h2 className="m-0 mt-4 text-xl font-bold">
          <a href={`/blog/${a.slug}`} className="text-ink-900 no-underline hover:underline">
            {a.texts.title}
          </a>
        </h2>
        <p className="m-0 mt-2 flex-1 text-ink-600">{a.texts.excerpt}</p>
        <p
          className="m-0 mt-4 inline-flex items-center gap-1 font-semibold text-brand-700"
          aria-hidden="true"
        >
          {t('common.read_more')}
          <Icon name="arrow" className="h-4 w-4" />
        </p>
      </article>
    </li>
  )
}

/**
 * The blog, newest first, with the articles that exist in the page's language; categories are
 * plain links, so the filter works without JavaScript.
 */
export function BlogListPage({ articles, category }: { articles: Article[]; category?: string }) {
  const { t } = usePage()
  const posts = category ? articles.filter((a) => a.shared.category === category) : articles
  const chip = 'rounded-full border px-4 py-2 text-sm font-semibold no-underline'
  return (
    <>
      <PageHero
        title={t('blog.title')}
        subtitle={t('blog.subtitle')}
        crumbs={[{ label: t('nav.blog') }]}
      />
      <section className="pb-16">
        <div className="container">
          <nav aria-label={t('blog.categories')}>
            <ul className="m-0 flex list-none flex-wrap gap-2 p-0">
              <li>
                <a
                  href="/blog"
                  aria-current={!category ? 'page' : undefined}
                  className={`${chip} border-slate-300 text-ink-700 aria-[current=page]:border-brand-600 aria-[current=page]:bg-brand-600 aria-[current=page]:text-white`}
                >
                  {t('blog.all_categories')}
                </a>
              </li>
              {categoriesOf(articles).map(({ key, label }) => (
                <li key={key}>
                  <a
                    href={`/blog?category=${key}`}
                    aria-current={category === key ? 'page' : undefined}
                    className={`${chip} border-slate-300 text-ink-700 aria-[current=page]:border-brand-600 aria-[current=page]:bg-brand-600 aria-[current=page]:text-white`}
                  >
                    {label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          <ul className="m-0 mt-8 grid list-none gap-6 p-0 md:grid-cols-2 lg:grid-cols-3">
            {posts.map((a, i) => (
              <PostCard key={a.slug} a={a} first={i === 0} />
            ))}
          </ul>
        </div>
      </section>
    </>
  )
}

/**
 * One article. Where it has no text in the page's language it is shown in English, marked as
 * such (lang and dir on what is English) and said so at the top, never passed off as a translation.
 */
export function BlogPostPage({ a, related }: { a: Article; related: Article[] }) {
  const { t, lang } = usePage()
  const date = useDates()
  const other = a.lang !== lang ? { lang: a.lang, dir: dirOf(a.lang) } : {}
  const updated = a.shared.updated
  return (
    <>
      <PageHero
        title={a.texts.title}
        textLang={a.lang !== lang ? a.lang : undefined}
        subtitle={a.texts.excerpt}
        crumbs={[{ label: t('nav.blog'), href: '/blog' }, { label: a.texts.title }]}
      >
        <div className="mt-6 space-y-2">
          {a.lang !== lang && (
            <p className="m-0 rounded-xl bg-amber-50 px-4 py-3 text-sm text-ink-800">
              {t('blog.only_in', { language: languageName(lang, a.lang) })}
            </p>
          )}
          <PostMetaLine a={a} />
          <p className="m-0 text-sm text-ink-600">
            {t('blog.by', { author: a.texts.author })}
            {updated && updated !== day(a.published) && (
              <>
                {' · '}
                {t('blog.updated')} <time dateTime={updated}>{date(updated)}</time>
              </>
            )}
          </p>
        </div>
      </PageHero>
      <div className="container grid gap-10 pb-12 lg:grid-cols-[1fr_16rem]">
        <div className="max-w-3xl" {...other}>
          <ArticleImage a={a} page />
          {/* Made from the desk's Markdown and sanitised when it was saved (content/markdown.ts). */}
          <article className="prose" dangerouslySetInnerHTML={{ __html: a.texts.html }} />
        </div>
        <aside className="hidden lg:block">
          <nav
            aria-labelledby="toc-title"
            className="sticky top-24 rounded-2xl border border-slate-200 p-5"
          >
            <h2
              id="toc-title"
              className="m-0 text-sm font-semibold uppercase tracking-wider text-ink-600"
            >
              {t('blog.contents')}
            </h2>
            <ol className="m-0 mt-3 list-none space-y-2 p-0 text-sm" {...other}>
              {a.texts.headings.map((h) => (
                <li key={h.id}>
                  <a
                    href={`#${h.id}`}
                    className="text-ink-700 no-underline hover:text-brand-700 hover:underline"
                  >
                    {h.text}
                  </a>
                </li>
              ))}
            </ol>
          </nav>
        </aside>
      </div>
      <div className="container pb-10">
        <p className="m-0">
          <a href="/blog" className="inline-flex items-center gap-1 font-semibold text-brand-700">
            <Icon name="arrow-back" className="h-4 w-4" />
            {t('blog.back')}
          </a>
        </p>
      </div>
      <section aria-labelledby="related-title" className="bg-slate-50 py-14">
        <div className="container">
          <h2 id="related-title" className="section-title m-0">
            {t('blog.related')}
          </h2>
          <ul className="m-0 mt-8 grid list-none gap-6 p-0 md:grid-cols-3">
            {related.map((r) => (
              <PostCard key={r.slug} a={r} />
            ))}
          </ul>
        </div>
      </section>
      <CtaBand title={t('blog.cta_title')} text={t('blog.cta_text')} />
    </>
  )
}
