import { challengeProps } from '../challenge/turnstile'
import { useRequestContext } from '@hono/react-renderer'
import type { Context } from 'hono'
import { createContext, useContext } from 'react'
import type { AppEnv } from '../env'

/**
 * The request, for a part of a page rendered on its own (layout/page-tail.tsx): the renderer's
 * own context (@hono/react-renderer's) exists only inside a page's render.
 */
export const PartContext = createContext<Context<AppEnv> | null>(null)

/** What every server component may read about the request being rendered. */
export function usePage() {
  const part = useContext(PartContext)
  // one or the other for a whole render, so the hooks run in the same order every time
  // eslint-disable-next-line react-hooks/rules-of-hooks
  const c = part ?? (useRequestContext() as unknown as Context<AppEnv>)
  // c.get, not c.var: Hono builds c.var afresh from all the variables on every read, and a
  // page reads this in some sixty components.
  return {
    t: c.get('t'),
    lang: c.get('lang'),
    config: c.get('config'),
    user: c.get('user'),
    path: c.req.path,
    nonce: c.get('secureHeadersNonce'),
    /** The forms' Turnstile settings, for the islands that e-mail a typed address. */
    challenge: challengeProps(c.env),
    /** Desk pages: form e-mails held back after a surge (desk/mail.tsx). */
    heldMail: c.get('heldMail') ?? 0,
    /** Desk pages: the staff member's role, which decides the bar and the actions shown. */
    deskRole: c.get('deskRole'),
    /** An experiment runs on this page (experiments/page.ts): the consent banner asks for it. */
    experimentsRun: Boolean(c.get('experimentsRun')),
  }
}

/** Longest title search results show whole (html-validate's `long-title` rule, too). */
const TITLE_MAX = 70

/** "<page title> | <site name>" for every page but home; the title alone where that is too long. */
export function titled(c: Context<AppEnv>, title: string) {
  const full = `${title} | ${c.var.t('meta.title_suffix')}`
  return full.length <= TITLE_MAX ? full : title
}

/** Path of a page in another language: the selector's links and hreflang alternates. */
export function langHref(path: string, lang: string) {
  return `${path}?lang=${lang}`
}

/**
 * A page's absolute address in a language, as its canonical and hreflang links name it (English
 * without `?lang=`): the sitemap, the feeds and the JSON-LD name the same one.
 */
export const pageUrl = (siteUrl: string, path: string, lang: string) =>
  siteUrl + (lang === 'en' ? path : langHref(path, lang))
