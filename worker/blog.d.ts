/** Built by `blogContent` (scripts/blog-content.ts) from locales/blog/<lang>/<slug>.md. */
declare module 'virtual:blog' {
  export interface Article {
    title: string
    description: string
    summary: string
    category: string
    author: string
    /** Rendered at build time from the repository's own Markdown. */
    html: string
    words: number
    headings: { id: string; text: string }[]
  }
  const articles: Record<string, Record<string, Article>>
  export default articles
}
