import type { Page } from 'playwright-core'
import en from '../../locales/en.json'

const c = en.desk.content

/** What a writer types into an article's form, past its slug and cover (the desk's labels are English). */
export interface ArticleText {
  title: string
  excerpt: string
  description: string
  categoryLabel: string
  author: string
  coverAlt: string
  body: string
}

/** Fills an open article form's text fields, in the order they stand. */
export async function fillArticleText(page: Page, text: ArticleText) {
  await page.getByLabel(c.fields.title).fill(text.title)
  await page.getByLabel(c.fields.excerpt).fill(text.excerpt)
  await page.getByLabel(c.fields.description).fill(text.description)
  await page.getByLabel(c.fields.category_label).fill(text.categoryLabel)
  await page.getByLabel(c.fields.author).fill(text.author)
  await page.getByLabel(c.fields.cover_alt).fill(text.coverAlt)
  await page.getByLabel(c.fields.body).fill(text.body)
}

/**
 * A new article (the form open at /desk/content/article/new) in the Amazon category, with a
 * phone's photo as its cover and a short text: what the phone-photo tests publish.
 */
export async function fillPhoneArticle(
  page: Page,
  article: {
    slug: string
    photo: { name: string; buffer: Buffer }
    title: string
    excerpt: string
  },
) {
  await page.getByLabel(c.fields.slug).fill(article.slug)
  await page.getByLabel(c.fields.category, { exact: true }).fill('amazon')
  await page.getByLabel(c.cover_upload).setInputFiles({ ...article.photo, mimeType: 'image/jpeg' })
  await fillArticleText(page, {
    title: article.title,
    excerpt: article.excerpt,
    description: 'A meta description long enough to pass the fifty character minimum.',
    categoryLabel: 'Amazon',
    author: 'Maya Writer',
    coverAlt: 'A grey photo',
    body: '## A part\n\nSome text.',
  })
}
