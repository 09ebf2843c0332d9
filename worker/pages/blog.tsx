import { Icon } from '../../client/components/icon'
import { Artwork, CtaBand, PageHero } from '../components/page-parts'
import { formatDay } from '../i18n/format'
import {
  article,
  categories,
  POSTS,
  readingMinutes,
  relatedPosts,
  type PostMeta,
} from '../data/blog'
import { usePage } from '../render/context'

function useDates() {
  const { lang } = usePage()
  return (iso: string) => formatDay(lang, iso)
}

function PostMetaLine({ post, withCategory = true }: { post: PostMeta; withCategory?: boolean }) {
  const { t, lang } = usePage()
  const date = useDates()
  const a = article(post.slug, lang)
  return (
    <p className="m-0 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-ink-600">
      {withCategory && (
        <a
          href={`/blog?category=${post.category}`}
          className="rounded-full bg-brand-50 px-3 py-1 text-xs font-semibold text-brand-700 no-underline hover:underline"
        >
          {a.category}
        </a>
      )}
      <time dateTime={post.published}>{date(post.published)}</time>
      <span>{t('blog.reading_time', { n: readingMinutes(a) })}</span>
    </p>
  )
}

function PostCard({ post }: { post: PostMeta }) {
  const { t, lang } = usePage()
  const a = article(post.slug, lang)
  return (
    <li>
      <article className="card flex h-full flex-col">
        <Artwork
          name={`article-${post.slug}`}
          alt={t('blog.image_alt', { title: a.title })}
          className="mb-5"
        />
        <PostMetaLine post={post} />
        <h2 className="m-0 mt-4 text-xl font-bold">
          <a href={`/blog/${post.slug}`} className="text-ink-900 no-underline hover:underline">
            {a.title}
          </a>
        </h2>
        <p className="m-0 mt-2 flex-1 text-ink-600">{a.summary}</p>
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

/** The blog, newest first; categories are plain links, so the filter works without JavaScript. */
export function BlogListPage({ category }: { category?: string }) {
  const { t, lang } = usePage()
  const posts = category ? POSTS.filter((p) => p.category === category) : POSTS
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
              {categories().map(({ key, post }) => (
                <li key={key}>
                  <a
                    href={`/blog?category=${key}`}
                    aria-current={category === key ? 'page' : undefined}
                    className={`${chip} border-slate-300 text-ink-700 aria-[current=page]:border-brand-600 aria-[current=page]:bg-brand-600 aria-[current=page]:text-white`}
                  >
                    {article(post.slug, lang).category}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          <ul className="m-0 mt-8 grid list-none gap-6 p-0 md:grid-cols-2 lg:grid-cols-3">
            {posts.map((post) => (
              <PostCard key={post.slug} post={post} />
            ))}
          </ul>
        </div>
      </section>
    </>
  )
}

export function BlogPostPage({ post }: { post: PostMeta }) {
  const { t, lang } = usePage()
  const date = useDates()
  const a = article(post.slug, lang)
  return (
    <>
      <PageHero
        title={a.title}
        subtitle={a.summary}
        crumbs={[{ label: t('nav.blog'), href: '/blog' }, { label: a.title }]}
      >
        <div className="mt-6 space-y-2">
          <PostMetaLine post={post} />
          <p className="m-0 text-sm text-ink-600">
            {t('blog.by', { author: a.author })}
            {post.updated !== post.published && (
              <>
                {' · '}
                {t('blog.updated')} <time dateTime={post.updated}>{date(post.updated)}</time>
              </>
            )}
          </p>
        </div>
      </PageHero>
      <div className="container grid gap-10 pb-12 lg:grid-cols-[1fr_16rem]">
        <div className="max-w-3xl">
          <Artwork
            name={`article-${post.slug}`}
            alt={t('blog.image_alt', { title: a.title })}
            eager
            className="mb-8"
          />
          {/* Our own Markdown from the repository, rendered at build time (scripts/blog-content.ts). */}
          <article className="prose" dangerouslySetInnerHTML={{ __html: a.html }} />
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
            <ol className="m-0 mt-3 list-none space-y-2 p-0 text-sm">
              {a.headings.map((h) => (
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
            {relatedPosts(post).map((p) => (
              <PostCard key={p.slug} post={p} />
            ))}
          </ul>
        </div>
      </section>
      <CtaBand title={t('blog.cta_title')} text={t('blog.cta_text')} />
    </>
  )
}
