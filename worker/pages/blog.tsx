import { Icon } from '../../client/components/icon'
import { CtaBand, PageHero } from '../components/page-parts'
import { POSTS, type PostMeta } from '../data/blog'
import { usePage } from './context'

function useDates() {
  const { lang } = usePage()
  const format = new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeZone: 'UTC' })
  return (iso: string) => format.format(new Date(iso))
}

function PostCard({ post }: { post: PostMeta }) {
  const { t } = usePage()
  const date = useDates()
  const base = `blog.posts.${post.key}`
  return (
    <li>
      <article className="card flex h-full flex-col">
        <p className="m-0 flex flex-wrap items-center gap-3 text-sm text-ink-600">
          <span className="rounded-full bg-brand-50 px-3 py-1 text-xs font-semibold text-brand-700">
            {t(`${base}.category`)}
          </span>
          <time dateTime={post.published}>{date(post.published)}</time>
          <span>{t('blog.reading_time', { n: post.readingMinutes })}</span>
        </p>
        <h2 className="m-0 mt-4 text-xl font-bold">
          <a href={`/blog/${post.slug}`} className="text-ink-900 no-underline hover:underline">
            {t(`${base}.title`)}
          </a>
        </h2>
        <p className="m-0 mt-2 flex-1 text-ink-600">{t(`${base}.summary`)}</p>
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

export function BlogListPage() {
  const { t } = usePage()
  return (
    <>
      <PageHero
        title={t('blog.title')}
        subtitle={t('blog.subtitle')}
        crumbs={[{ label: t('nav.blog') }]}
      />
      <section className="py-14">
        <ul className="container m-0 grid list-none gap-6 md:grid-cols-2 lg:grid-cols-3">
          {POSTS.map((post) => (
            <PostCard key={post.slug} post={post} />
          ))}
        </ul>
      </section>
    </>
  )
}

export function BlogPostPage({ post }: { post: PostMeta }) {
  const { t } = usePage()
  const date = useDates()
  const base = `blog.posts.${post.key}`
  const related = POSTS.filter((p) => p.slug !== post.slug).slice(0, 3)
  return (
    <>
      <PageHero
        title={t(`${base}.title`)}
        subtitle={t(`${base}.summary`)}
        crumbs={[{ label: t('nav.blog'), href: '/blog' }, { label: t(`${base}.title`) }]}
      >
        <p className="m-0 mt-6 flex flex-wrap items-center gap-3 text-sm text-ink-600">
          <span className="rounded-full bg-brand-50 px-3 py-1 text-xs font-semibold text-brand-700">
            {t(`${base}.category`)}
          </span>
          <span>
            {t('blog.published')} <time dateTime={post.published}>{date(post.published)}</time>
          </span>
          <span>{t('blog.reading_time', { n: post.readingMinutes })}</span>
        </p>
      </PageHero>
      <article className="container max-w-3xl pb-12">
        <div className="space-y-5 text-lg leading-relaxed text-ink-700">
          {t.data<string[]>(`${base}.body`).map((p, i) => (
            <p key={i} className="m-0">
              {p}
            </p>
          ))}
        </div>
        <p className="m-0 mt-10">
          <a href="/blog" className="inline-flex items-center gap-1 font-semibold text-brand-700">
            <Icon name="arrow-back" className="h-4 w-4" />
            {t('blog.back')}
          </a>
        </p>
      </article>
      <section aria-labelledby="related-title" className="bg-slate-50 py-14">
        <div className="container">
          <h2 id="related-title" className="section-title m-0">
            {t('blog.related')}
          </h2>
          <ul className="m-0 mt-8 grid list-none gap-6 p-0 md:grid-cols-3">
            {related.map((p) => (
              <PostCard key={p.slug} post={p} />
            ))}
          </ul>
        </div>
      </section>
      <CtaBand title={t('blog.cta_title')} text={t('blog.cta_text')} />
    </>
  )
}
