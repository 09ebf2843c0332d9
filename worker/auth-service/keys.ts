import { exportJWK, generateKeyPair, importJWK, type JWK } from 'jose'
import type { Bindings } from '../bindings'

export const ALG = 'ES256'

export interface SigningKey {
  kid: string
  privateKey: CryptoKey
}

export class AuthConfigError extends Error {}

/**
 * The key that signs access tokens: AUTH_SIGNING_KEY (a private EC P-256 JWK with a kid) when
 * set; otherwise, outside production only, one generated once and kept in the local D1.
 */
export async function signingKey(env: Bindings): Promise<SigningKey> {
  if (env.AUTH_SIGNING_KEY) {
    const jwk = JSON.parse(env.AUTH_SIGNING_KEY) as JWK
    if (!jwk.kid) throw new AuthConfigError('AUTH_SIGNING_KEY needs a "kid"')
    return { kid: jwk.kid, privateKey: (await importJWK(jwk, ALG)) as CryptoKey }
  }
  if (env.ENVIRONMENT === 'production')
    throw new AuthConfigError(
      'The built-in auth service refuses to sign with a generated key in production: set AUTH_SIGNING_KEY',
    )
  let row = await env.DB.prepare(
    'SELECT kid, private_jwk FROM auth_keys ORDER BY created_at DESC LIMIT 1',
  ).first<{ kid: string; private_jwk: string }>()
  if (!row) {
    const { privateKey, publicKey } = await generateKeyPair(ALG, { extractable: true })
    const kid = crypto.randomUUID()
    const priv = { ...(await exportJWK(privateKey)), kid, alg: ALG, use: 'sig' }
    const pub = { ...(await exportJWK(publicKey)), kid, alg: ALG, use: 'sig' }
    await env.DB.prepare('INSERT INTO auth_keys (kid, private_jwk, public_jwk) VALUES (?, ?, ?)')
      .bind(kid, JSON.stringify(priv), JSON.stringify(pub))
      .run()
    // Two first requests racing may both generate: the newest row wins, both stay verifiable.
    row = await env.DB.prepare(
      'SELECT kid, private_jwk FROM auth_keys ORDER BY created_at DESC LIMIT 1',
    ).first()
  }
  return {
    kid: row!.kid,
    privateKey: (await importJWK(JSON.parse(row!.private_jwk), ALG)) as CryptoKey,
  }
}

/** Public keys that verify tokens: the current one and the previous ones (rotation). */
export async function publicKeys(env: Bindings): Promise<JWK[]> {
  const keys: JWK[] = []
  for (const secret of [env.AUTH_SIGNING_KEY, env.AUTH_PREVIOUS_SIGNING_KEY]) {
    if (!secret) continue
    const { d: _private, ...pub } = JSON.parse(secret) as JWK
    keys.push({ ...pub, alg: ALG, use: 'sig' })
  }
  if (!env.AUTH_SIGNING_KEY) {
    const { results } = await env.DB.prepare(
      'SELECT public_jwk FROM auth_keys ORDER BY created_at DESC',
    ).all<{ public_jwk: string }>()
    keys.push(...results.map((r) => JSON.parse(r.public_jwk) as JWK))
  }
  return keys
}
