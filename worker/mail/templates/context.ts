import { isLang, type Lang } from '../../../client/lib/languages'
import type { SiteConfig } from '../../config'
import { sealLink, type LinkClaims } from '../../consent/links'
import type { Bindings } from '../../bindings'
import { languageName } from '../../i18n/format'
import type { Translator } from '../../i18n/translator'
import type { MailCategory } from '../../db/outbox'
import type { Letter } from '../letter'

/** What a template may read: the recipient's language, the site's settings and strings. */
export interface MailContext {
  t: Translator
  lang: Lang
  config: SiteConfig
  db: D1Database
  /**
   * One of the site's pages (a path without a query, and `query`'s parameters), absolute and in
   * the reader's language.
   */
  page: (path: string, query?: Record<string, string>) => string
  /** A sealed token for an e-mailed link (consent/links.ts). */
  seal: (claims: LinkClaims) => Promise<string>
}

/** One kind of e-mail: its audience and its wording; never how it is sent. */
export interface MailTemplate<Data> {
  category: MailCategory
  /**
   * The data holds a one-time link or code: the outbox forgets it once the e-mail is sent or
   * given up (the auth tables keep only hashes, and so should the outbox).
   */
  secret?: boolean
  /**
   * A staff member's test of a marketing e-mail: its unsubscribe link does nothing (a test
   * must never suppress the staff address) and its footer says it is a test.
   */
  test?: boolean
  letter(ctx: MailContext, data: Data): Letter | Promise<Letter>
}

/** The context of a template, for the recipient's language. */
export const mailContext = (
  env: Bindings,
  config: SiteConfig,
  lang: Lang,
  t: Translator,
): MailContext => ({
  ...{ t, lang, config, db: env.DB },
  // `?lang=`, which the pages read first: the reader's language on any device
  page: (path, query) => `${config.siteUrl}${path}?${new URLSearchParams({ ...query, lang })}`,
  seal: (claims) => sealLink(env, claims),
})

/** A visitor's language for the agency: its name in the agency's language ("Englisch"), not "en". */
export const spokenBy = (lang: Lang, code: string) =>
  isLang(code) ? languageName(lang, code) : code
