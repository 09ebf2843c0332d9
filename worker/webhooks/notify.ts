import type { Bindings } from '../bindings'
import { siteConfig } from '../config'
import { integrationManagers } from '../db/webhooks'
import { createTranslator } from '../i18n/translator'
import { agencyAddress, agencyLanguage, insertedIds, mailRow, sendJobs } from '../mail/enqueue'
import { can, ROLES } from '../roles'

/** The roles that manage integrations (Owner, Admin), and "agency", the Admin of before roles. */
const MANAGING = [...ROLES.filter((r) => can(r, 'integrations.manage')), 'agency']

/**
 * An endpoint turned off after five days of failures: the agency's address and each Owner and
 * Admin the built-in auth service knows are e-mailed, in the agency's language, through the
 * outbox. With a hosted GoTrue the roles are not in this database: the agency's address alone.
 */
export async function tellManagers(
  env: Bindings,
  endpoint: { url: string; description: string; since: string },
) {
  const config = siteConfig(env)
  const lang = agencyLanguage(env)
  const w = { env, config, lang, t: createTranslator(lang) }
  const agency = agencyAddress(env, config).toLowerCase()
  const others = (await integrationManagers(env.DB, MANAGING)).filter(
    (a) => a.toLowerCase() !== agency,
  )
  const data = { url: endpoint.url, description: endpoint.description, since: endpoint.since }
  const rows = [
    await mailRow(w, 'webhook_disabled', 'agency', data),
    ...(await Promise.all(
      [...new Set(others)].map((to) => mailRow(w, 'webhook_disabled', to, data)),
    )),
  ]
  const results = await env.DB.batch(rows)
  await sendJobs(
    env,
    insertedIds(
      results,
      rows.map((_, i) => i),
    ),
  )
}
