import articles, { type Article } from 'virtual:blog'
import type { Lang } from '../../client/lib/languages'

/**
 * Blog articles (SPEC §2), newest first. Their text is Markdown in locales/blog/<lang>/;
 * `category` is the stable key of the list's filter links (?category=…).
 */
export interface PostMeta {
  slug: string
  category: string
  published: string
  updated: string
}

export const POSTS: PostMeta[] = [
  {
    slug: 'tiktok-shop-guide',
    category: 'tiktok-shop',
    published: '2026-10-28',
    updated: '2026-11-10',
  },
  {
    slug: 'social-media-trends',
    category: 'social-media',
    published: '2026-10-14',
    updated: '2026-10-14',
  },
  {
    slug: 'sales-funnels-guide',
    category: 'sales-funnels',
    published: '2026-09-30',
    updated: '2026-10-05',
  },
  {
    slug: 'amazon-listings-guide',
    category: 'amazon',
    published: '2026-09-16',
    updated: '2026-09-16',
  },
  {
    slug: 'email-marketing-automation',
    category: 'email-marketing',
    published: '2026-09-02',
    updated: '2026-09-20',
  },
  {
    slug: 'shopify-seo-guide',
    category: 'shopify',
    published: '2026-08-19',
    updated: '2026-08-19',
  },
  {
    slug: 'amazon-sales-strategies',
    category: 'amazon',
    published: '2026-08-05',
    updated: '2026-08-12',
  },
  {
    slug: 'gmb-optimization-guide',
    category: 'local-seo',
    published: '2026-07-22',
    updated: '2026-07-22',
  },
  {
    slug: 'affiliate-marketing-guide',
    category: 'affiliate-marketing',
    published: '2026-07-08',
    updated: '2026-07-08',
  },
]

/** The article in the visitor's language (every article exists in all six; en as a safety net). */
export function article(slug: string, lang: Lang): Article {
  return articles[lang]?.[slug] ?? articles.en[slug]
}

export const readingMinutes = (a: Article) => Math.max(1, Math.round(a.words / 200))

/** Related reading: the same category first, then the newest others. */
export function relatedPosts(post: PostMeta, count = 3) {
  const others = POSTS.filter((p) => p.slug !== post.slug)
  return [
    ...others.filter((p) => p.category === post.category),
    ...others.filter((p) => p.category !== post.category),
  ].slice(0, count)
}

/** The categories in use, in list order, each with one of its posts (for its label). */
export function categories() {
  const seen = new Map<string, PostMeta>()
  for (const p of POSTS) if (!seen.has(p.category)) seen.set(p.category, p)
  return [...seen.entries()].map(([key, post]) => ({ key, post }))
}
