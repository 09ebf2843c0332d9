import type { Context } from 'hono'
import type { Lang } from '../../client/lib/languages'
import type { MediaPicture } from '../../client/lib/media-picture'
import {
  liveArticleIndex,
  liveItemQuery,
  liveItemsQuery,
  readLive,
  type LiveItem,
} from '../db/content'
import type { ContentKind } from '../db/content-kinds'
import { noteDatabaseAnswer, noteDatabaseFailure } from '../db/outage'
import type { AppEnv } from '../env'
import { ensureSnapshots, readSnapshot } from './snapshot'

/**
 * What the public pages read of the content (db/content.ts does the SQL): typed per kind. A page
 * reads it before it renders (from the nearest replica), so the render itself never waits; when
 * D1 fails, it reads the snapshot of the published content instead (content/snapshot.ts).
 */

export interface ArticleCard {
  name: string
  title: string
  /** The cover's name when it was drawn ('' for none). */
  cover: string
}

export interface ArticleShared {
  category: string
  /** The illustration of an article from before the desk (public/images/art/<artwork>.svg). */
  artwork?: string
  cover?: MediaPicture
  /** Its social card in each language (/media/<name>), with the title and cover it shows. */
  cards?: Partial<Record<Lang, ArticleCard>>
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
export type CaseStudy = LiveItem<CaseTexts> & { shared: { artwork?: string; cover?: MediaPicture } }

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

/** What a page reads its content from: the request's D1, its language, R2 for the snapshot. */
type Source = Context<AppEnv>

/**
 * One page's reads from D1; when D1 fails, the same items from the kinds' snapshots in R2
 * (content/snapshot.ts), and the response says so (`X-Content-Source: snapshot`, never kept
 * by the edge: layout/document.tsx). Without a snapshot the failure stands (a 503 page).
 */
async function readOr<T>(
  c: Source,
  fromD1: () => Promise<T>,
  kinds: readonly ContentKind[],
  fromSnapshot: (lists: Partial<Record<Lang, unknown[]>>[]) => T,
): Promise<T> {
  try {
    const read = await fromD1()
    noteDatabaseAnswer()
    ensureSnapshots(c)
    return read
  } catch (err) {
    noteDatabaseFailure()
    const snapshots = await Promise.all(kinds.map((kind) => readSnapshot(c.env, kind))).catch(
      () => [null],
    )
    if (snapshots.some((s) => !s)) throw err
    console.error('content read from the snapshot: D1 failed', err)
    c.set('contentSource', 'snapshot')
    return fromSnapshot(snapshots.map((s) => s!.items))
  }
}

/** Each page's reads, one batch each. The articles without their HTML (a list shows none). */
export const articles = (c: Source) => listOf<Article>(c, 'article', { brief: true })

/** An article and the list its related reading comes from. */
export function articlePage(c: Source, slug: string) {
  const { DB: db } = c.env
  const { lang } = c.var
  return readOr(
    c,
    async () => {
      const [found, list] = await readLive(db, [
        liveItemQuery(db, 'article', slug, lang),
        liveItemsQuery(db, 'article', lang, { brief: true }),
      ])
      return { article: (found[0] as Article | undefined) ?? null, list: list as Article[] }
    },
    ['article'],
    ([items]) => {
      const byLang = items as Partial<Record<Lang, Article[]>>
      const found = [byLang[lang], byLang.en].map((l) => l?.find((a) => a.slug === slug))
      return {
        article: found[0] ?? found[1] ?? null,
        list: byLang[lang] ?? [],
      }
    },
  )
}

/**
 * Every published article's address, languages and last change, newest first (the sitemap). From
 * the snapshot: each language's list together, an article once, in the order D1 gives.
 */
export function articleIndex(c: Source) {
  return readOr(
    c,
    () => liveArticleIndex(c.env.DB),
    ['article'],
    ([items]) => {
      const seen = new Map<string, LiveItem>()
      for (const list of Object.values(items) as LiveItem[][])
        for (const a of list) if (!seen.has(a.slug)) seen.set(a.slug, a)
      return [...seen.values()]
        .sort((a, b) => b.published.localeCompare(a.published))
        .map((a) => ({ slug: a.slug, updated_at: a.updatedAt, langs: a.langs }))
    },
  )
}

/** A kind's live items in the page's language. */
function listOf<T>(c: Source, kind: ContentKind, options?: { brief?: boolean }) {
  const { DB: db } = c.env
  const { lang } = c.var
  return readOr(
    c,
    async () => (await readLive(db, [liveItemsQuery(db, kind, lang, options)]))[0] as T[],
    [kind],
    ([items]) => (items[lang] ?? []) as T[],
  )
}

export const caseStudies = (c: Source) => listOf<CaseStudy>(c, 'case')

export const testimonials = (c: Source) => listOf<LiveItem<TestimonialTexts>>(c, 'testimonial')

/** The plans and the questions (the pricing page shows both). */
export function plansAndQuestions(c: Source) {
  const { DB: db } = c.env
  const { lang } = c.var
  return readOr(
    c,
    async () => {
      const [plans, questions] = await readLive(db, [
        liveItemsQuery(db, 'plan', lang),
        liveItemsQuery(db, 'faq', lang),
      ])
      return { plans: plans as Plan[], questions: questions as Question[] }
    },
    ['plan', 'faq'],
    ([plans, questions]) => ({
      plans: (plans[lang] ?? []) as Plan[],
      questions: (questions[lang] ?? []) as Question[],
    }),
  )
}

export const questions = (c: Source) => listOf<Question>(c, 'faq')

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

/** The article's card in the language it is shown in, while its title and cover are the card's. */
export function currentCard(a: Article): ArticleCard | null {
  const card = a.shared.cards?.[a.lang]
  return card && card.title === a.texts.title && card.cover === (a.shared.cover?.name ?? '')
    ? card
    : null
}
