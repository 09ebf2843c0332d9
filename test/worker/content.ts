import { env } from 'cloudflare:test'

/** The published articles' texts in a language, by slug, as D1 holds them (the seed, migration 0014). */
export async function articleTexts(lang: string) {
  const { results } = await env.DB.prepare(
    `SELECT i.slug, t.fields, i.fields AS shared, i.published_at FROM content_items i JOIN content_texts t ON t.item_id = i.id
     WHERE i.kind = 'article' AND i.status = 'published' AND t.lang = ?
     ORDER BY i.published_at DESC`,
  )
    .bind(lang)
    .all<{ slug: string; fields: string; shared: string; published_at: string }>()
  return Object.fromEntries(
    results.map((r) => [
      r.slug,
      {
        ...(JSON.parse(r.fields) as {
          title: string
          description: string
          excerpt: string
          author: string
          words: number
        }),
        published: r.published_at.slice(0, 10),
        updated: (JSON.parse(r.shared) as { updated: string }).updated,
      },
    ]),
  )
}

/** The plans' names in a language, in their order. */
export async function planNames(lang: string) {
  const { results } = await env.DB.prepare(
    `SELECT json_extract(t.fields, '$.name') AS name FROM content_items i
     JOIN content_texts t ON t.item_id = i.id AND t.lang = ? WHERE i.kind = 'plan' ORDER BY i.position`,
  )
    .bind(lang)
    .all<{ name: string }>()
  return results.map((r) => r.name)
}
