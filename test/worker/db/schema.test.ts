import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { challengeFields } from '../../../client/schemas/challenge'
import { ContactSchema, EmailSignupSchema, GuideRequestSchema } from '../../../client/schemas/leads'

// One source per data shape: what a schema validates is what the table stores. A field added to
// a schema without its column (or a column renamed in a migration) fails here, not in production.

async function columns(table: string) {
  const { results } = await env.DB.prepare(`PRAGMA table_info(${table})`).all<{ name: string }>()
  return new Set(results.map((r) => r.name))
}

/** The fields a schema stores: all but the honeypot and the challenge token, plus the language. */
const stored = (entries: Record<string, unknown>) => [
  ...Object.keys(entries).filter((k) => k !== 'website' && !(k in challengeFields)),
  'language',
]

describe('tables hold what the schemas validate', () => {
  it('contact_messages has a column for every contact field', async () => {
    const table = await columns('contact_messages')
    for (const field of stored(ContactSchema.entries)) expect(table, field).toContain(field)
  })

  it('guide_requests and subscribers have the guide and sign-up fields', async () => {
    const guides = await columns('guide_requests')
    for (const field of stored(GuideRequestSchema.entries)) expect(guides, field).toContain(field)
    const subscribers = await columns('subscribers')
    for (const field of stored(EmailSignupSchema.entries))
      expect(subscribers, field).toContain(field)
  })
})
