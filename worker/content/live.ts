import type { Lang } from '../../client/lib/languages'
import { liveItem, liveItems, type LiveItem } from '../db/content'

/**
 * What the public pages read of the content (db/content.ts does the SQL): typed per kind. A page
 * reads it before it renders (from the nearest replica), so the render itself never waits.
 */

/** A picture the desk stored (content/media.ts), with the size its page reserves. */
export interface Cover {
  name: string
  width: number
  height: number
}

export interface ArticleShared {
  category: string
  /** The illustration of an article from before the desk (public/images/art/<artwork>.svg). */
  artwork?: string
  cover?: Cover
  /** The day its text last changed in a way worth saying (YYYY-MM-DD). */
  updated?: string
}

export interface ArticleTexts {
  title: string
  excerpt: string
  description: string
  category_label: string
  author: string
  cover_alt?: string
  /** The HTML made from the Markdown on save (content/markdown.ts); absent from the lists. */
  html: string
  headings: { id: string; text: string }[]
  words: number
}

export type Article = LiveItem<ArticleTexts> & { shared: ArticleShared }

export interface CaseTexts {
  title: string
  client: string
  platform: string
  service: string
  challenge: string
  approach: string
  results: { value: string; label: string }[]
  quote: string
  quote_author: string
  cover_alt?: string
}
export type CaseStudy = LiveItem<CaseTexts> & { shared: { artwork?: string; cover?: Cover } }

export interface TestimonialTexts {
  name: string
  company: string
  role: string
  content: string
}

export interface PlanTexts {
  name: string
  for: string
  features: string[]
  price_label?: string
}
export type Plan = LiveItem<PlanTexts> & { shared: { price: number | null; popular: boolean } }

export interface FaqTexts {
  q: string
  a: string
}
export type Question = LiveItem<FaqTexts> & { shared: { group: string } }

export const articles = (db: D1Database, lang: Lang) =>
  liveItems<ArticleTexts>(db, 'article', lang, { brief: true }) as Promise<Article[]>
export const article = (db: D1Database, slug: string, lang: Lang) =>
  liveItem<ArticleTexts>(db, 'article', slug, lang) as Promise<Article | null>
export const caseStudies = (db: D1Database, lang: Lang) =>
  liveItems<CaseTexts>(db, 'case', lang) as Promise<CaseStudy[]>
export const testimonials = (db: D1Database, lang: Lang) =>
  liveItems<TestimonialTexts>(db, 'testimonial', lang)
export const plans = (db: D1Database, lang: Lang) =>
  liveItems<PlanTexts>(db, 'plan', lang) as Promise<Plan[]>
export const questions = (db: D1Database, lang: Lang) =>
  liveItems<FaqTexts>(db, 'faq', lang) as Promise<Question[]>

export const readingMinutes = (words: number) => Math.max(1, Math.round(words / 200))

/** The categories in use, in list order, each with its label in this language. */
export function categoriesOf(list: Article[]) {
  const seen = new Map<string, string>()
  for (const a of list)
    if (!seen.has(a.shared.category)) seen.set(a.shared.category, a.texts.category_label)
  return [...seen.entries()].map(([key, label]) => ({ key, label }))
}

/** Related reading: the same category first, then the newest others. */
export function relatedTo(slug: string, category: string, list: Article[], count = 3) {
  const others = list.filter((a) => a.slug !== slug)
  return [
    ...others.filter((a) => a.shared.category === category),
    ...others.filter((a) => a.shared.category !== category),
  ].slice(0, count)
}
