import { base64url, EncryptJWT, errors, jwtDecrypt } from 'jose'
import type { Bindings } from '../bindings'

/**
 * The tokens of the links e-mailed for consent and data rights: confirm a subscription,
 * unsubscribe, export or erase one's data. Each is a JWT sealed with AES-256-GCM (jose, `dir`):
 * authenticated, so it cannot be forged or altered, and encrypted, so the address it names is
 * not readable in a URL. Each carries its purpose and an expiry; single use, where a link needs
 * it, is the database's job (a nonce spent once).
 */

export type LinkClaims =
  | { p: 'confirm'; n: string }
  | { p: 'unsubscribe'; e: string }
  | { p: 'data'; a: 'export' | 'erase'; e: string }
  /** A booking's reschedule-and-cancel page: that one booking, by its token. */
  | { p: 'booking'; t: string }

type Purpose = LinkClaims['p']
export type LinkOf<P extends Purpose> = Extract<LinkClaims, { p: P }>

export type OpenedLink<P extends Purpose> =
  | { ok: true; claims: LinkOf<P> }
  | { ok: false; reason: 'expired' | 'invalid' }

/** How long each kind of link works. */
export const LINK_SECONDS = {
  confirm: 7 * 24 * 3600,
  unsubscribe: 365 * 24 * 3600,
  data: 24 * 3600,
  booking: 400 * 24 * 3600,
} satisfies Record<Purpose, number>

export class LinkConfigError extends Error {}

const keys = new Map<string, Promise<Uint8Array>>()

/** 256 bits from the secret, by HKDF (the secret may be any long random string). */
async function derive(secret: string) {
  const material = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    'HKDF',
    false,
    ['deriveBits'],
  )
  const bits = await crypto.subtle.deriveBits(
    {
      name: 'HKDF',
      hash: 'SHA-256',
      salt: new Uint8Array(),
      info: new TextEncoder().encode('growth-agency links v1'),
    },
    material,
    256,
  )
  return new Uint8Array(bits)
}

/**
 * LINK_SECRET when set; otherwise, outside production only, one generated once and kept in D1
 * (as the built-in auth service does with its signing key).
 */
async function secretOf(env: Bindings): Promise<string> {
  if (env.LINK_SECRET) return env.LINK_SECRET
  if (env.ENVIRONMENT === 'production')
    throw new LinkConfigError('LINK_SECRET is not set: e-mailed links cannot be made in production')
  // read once per isolate and database: a newsletter seals a link for every one of its e-mails
  let stored = storedSecrets.get(env.DB)
  if (!stored) {
    storedSecrets.set(env.DB, (stored = storedSecret(env)))
    stored.catch(() => storedSecrets.delete(env.DB))
  }
  return stored
}

const storedSecrets = new WeakMap<D1Database, Promise<string>>()

async function storedSecret(env: Bindings) {
  const fresh = base64url.encode(crypto.getRandomValues(new Uint8Array(32)))
  // two first requests racing both insert-or-keep, then read the one row that won
  await env.DB.prepare(
    "INSERT INTO site_secrets (name, value) VALUES ('link', ?) ON CONFLICT DO NOTHING",
  )
    .bind(fresh)
    .run()
  const row = await env.DB.prepare("SELECT value FROM site_secrets WHERE name = 'link'").first<{
    value: string
  }>()
  return row!.value
}

async function keyOf(env: Bindings) {
  const secret = await secretOf(env)
  let key = keys.get(secret)
  if (!key) keys.set(secret, (key = derive(secret)))
  return key
}

export async function sealLink(env: Bindings, claims: LinkClaims): Promise<string> {
  return new EncryptJWT({ ...claims })
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
    .setIssuedAt()
    .setExpirationTime(`${LINK_SECONDS[claims.p]}s`)
    .encrypt(await keyOf(env))
}

/** The claims of a link of `purpose`; an expired, altered or foreign token says which. */
export async function openLink<P extends Purpose>(
  env: Bindings,
  token: string | undefined,
  purpose: P,
): Promise<OpenedLink<P>> {
  if (!token || token.length > 2000) return { ok: false, reason: 'invalid' }
  try {
    const { payload } = await jwtDecrypt(token, await keyOf(env), {
      keyManagementAlgorithms: ['dir'],
      contentEncryptionAlgorithms: ['A256GCM'],
    })
    if (payload.p !== purpose) return { ok: false, reason: 'invalid' }
    return { ok: true, claims: payload as unknown as LinkOf<P> }
  } catch (err) {
    if (err instanceof LinkConfigError) throw err
    return { ok: false, reason: err instanceof errors.JWTExpired ? 'expired' : 'invalid' }
  }
}

/** The page a link opens, in the reader's language (`lang` is the one query the pages read). */
export const linkUrl = (siteUrl: string, path: string, token: string, lang: string) =>
  `${siteUrl}${path}?${new URLSearchParams({ token, lang })}`
