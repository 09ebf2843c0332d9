import type { Lang } from '../client/lib/languages'
import type { Translator } from './i18n/translator'
import type { AccessClaims, AuthUser } from './auth-types'
import type { SiteConfig } from './config'
import type { PageOutput } from './react-dom-server'
import type { Bindings } from './bindings'
import type { Role } from './roles'

/** What kept the desk from confirming a staff member: their edits wait until it answers. */
export type DeskDown = 'database' | 'sign-in'

/**
 * The app's env as Hono types it: the Worker's bindings (bindings.ts) and what the middleware
 * sets on each request's context.
 */
export interface AppEnv {
  Bindings: Bindings
  Variables: {
    lang: Lang
    t: Translator
    /** How the language was chosen: the page's language suggestion reads it. */
    langSource: 'query' | 'cookie' | 'negotiated'
    config: SiteConfig
    secureHeadersNonce?: string
    /** The experiments this page shows in B, as the cache keys it (experiments/page.ts). */
    variants?: string
    /** A running experiment shows this page in B to some visitors: the consent banner asks. */
    experimentsRun?: boolean
    /**
     * Set by the edge cache on a render of a page every anonymous visitor of its language
     * shares: how the renderer turns it into bytes, this response's nonce written in and the
     * page as rendered kept for the cache (render/nonce-slots.ts).
     */
    pageOutput?: PageOutput
    /** Desk pages: form e-mails held back after a surge, waiting for the agency (desk/mail.tsx). */
    heldMail?: number
    /** The signed-in visitor, from a verified access token (worker/auth/session.ts). */
    user?: { id: string; email: string }
    /** That visitor's access token: the cookie's, or the one refreshed for this request. */
    accessToken?: string
    /** The claims of the cookie's access token as session() verified them (not of a refreshed one). */
    claims?: AccessClaims
    /** The account as the provider confirmed it on a signed-in-only route (auth/session.ts). */
    account?: AuthUser
    signedIn?: boolean
    /**
     * The session could not be checked (the auth service or its keys out of reach): the page
     * renders as for a visitor, with a notice that the account is unavailable (auth/session.ts).
     */
    sessionUnchecked?: boolean
    /**
     * Staff whose session the provider could not confirm (it is down): nothing is saved. Which
     * was down: D1 (the built-in provider's store) or a hosted sign-in service (AUTH_URL).
     */
    deskReadOnly?: DeskDown
    /** The staff member's role in the desk, as their account says now (desk/guard.ts). */
    deskRole?: Role
    /** The page's content came from the snapshot, D1 failing (content/live.ts). */
    contentSource?: 'snapshot'
    /** The page is not for search engines (the route table's `indexable: false`). */
    noindex?: boolean
    /** No splash or welcome popup over the page (the route table's `quiet`). */
    quiet?: boolean
  }
}
