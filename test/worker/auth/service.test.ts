import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, SignJWT } from 'jose'
import { describe, expect, it } from 'vitest'
import { DUMMY_TOKEN, withCaptcha } from '../challenge'
import { api, client, SITE, unique as uniqueEmail } from './helpers'
import app from '../../../worker/index'

const unique = () => uniqueEmail('user')

describe('built-in auth service with @supabase/supabase-js', () => {
  it('signs up, signs in, reads and updates the user, refreshes and signs out', async () => {
    const supabase = client()
    const email = unique()
    const up = await supabase.auth.signUp({
      email,
      password: 'correct horse 1',
      options: { captchaToken: DUMMY_TOKEN, data: { name: 'Ada' } },
    })
    expect(up.error).toBeNull()
    expect(up.data.user?.email).toBe(email)
    expect(up.data.session?.access_token).toBeTruthy()

    const signIn = await supabase.auth.signInWithPassword({
      email: email.toUpperCase(),
      password: 'correct horse 1',
    })
    expect(signIn.error).toBeNull()
    const session = signIn.data.session!
    const claims = decodeJwt(session.access_token)
    expect(decodeProtectedHeader(session.access_token)).toMatchObject({ alg: 'ES256', typ: 'JWT' })
    expect(claims).toMatchObject({
      iss: `${SITE}/auth/v1`,
      aud: 'authenticated',
      sub: signIn.data.user!.id,
      email,
      role: 'authenticated',
      aal: 'aal1',
    })
    expect(claims.exp! - claims.iat!).toBe(3600)
    expect(claims.session_id).toBeTruthy()

    const got = await supabase.auth.getUser(session.access_token)
    expect(got.data.user?.user_metadata).toEqual({ name: 'Ada' })

    await supabase.auth.setSession({
      access_token: session.access_token,
      refresh_token: session.refresh_token,
    })
    const updated = await supabase.auth.updateUser({ data: { company: 'Ada Ltd' } })
    expect(updated.error).toBeNull()
    expect(updated.data.user?.user_metadata).toEqual({ name: 'Ada', company: 'Ada Ltd' })

    const refreshed = await supabase.auth.refreshSession()
    expect(refreshed.error).toBeNull()
    expect(refreshed.data.session?.refresh_token).not.toBe(session.refresh_token)

    const out = await supabase.auth.signOut()
    expect(out.error).toBeNull()
    // the session is over: its tokens no longer work (GoTrue's 403 for an ended session)
    const after = await api('/user', {
      headers: { Authorization: `Bearer ${refreshed.data.session!.access_token}` },
    })
    expect(after.status).toBe(403)
    expect(await after.json()).toEqual({
      code: 403,
      error_code: 'session_not_found',
      msg: 'Session from session_id claim in JWT does not exist',
    })
  })

  it('answers wrong passwords and duplicates with GoTrue error shapes', async () => {
    const email = unique()
    await client().auth.signUp({
      email,
      password: 'correct horse 1',
      options: { captchaToken: DUMMY_TOKEN },
    })
    const wrong = await client().auth.signInWithPassword({ email, password: 'nope nope nope' })
    expect(wrong.error).toMatchObject({
      status: 400,
      code: 'invalid_credentials',
      message: 'Invalid login credentials',
    })
    const again = await client().auth.signUp({
      email,
      password: 'correct horse 1',
      options: { captchaToken: DUMMY_TOKEN },
    })
    expect(again.error).toMatchObject({ status: 422, code: 'user_already_exists' })
    const weak = await client().auth.signUp({
      email: unique(),
      password: 'short',
      options: { captchaToken: DUMMY_TOKEN },
    })
    expect(weak.error).toMatchObject({ status: 422, code: 'weak_password' })
    const raw = await api('/token?grant_type=password', {
      method: 'POST',
      body: JSON.stringify({ email, password: 'x' }),
    })
    expect(await raw.json()).toEqual({
      code: 400,
      error_code: 'invalid_credentials',
      msg: 'Invalid login credentials',
    })
  })
})

const refresh = async (refreshToken: string) => {
  const res = await api('/token?grant_type=refresh_token', {
    method: 'POST',
    body: JSON.stringify({ refresh_token: refreshToken }),
  })
  return { status: res.status, body: (await res.json()) as Record<string, string> }
}

/** Moves the moment `token` was spent back by `seconds` (its successor's birth). */
const spentAgo = (token: string, seconds: number) =>
  env.DB.prepare(
    `UPDATE auth_refresh_tokens SET created_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?)
     WHERE parent = ?`,
  )
    .bind(`-${seconds} seconds`, token)
    .run()

const userStatus = async (accessToken: string) =>
  (await api('/user', { headers: { Authorization: `Bearer ${accessToken}` } })).status

describe('refresh tokens', () => {
  it('rotate; a spent one reused after the reuse interval ends the whole session', async () => {
    const email = unique()
    const { data } = await client().auth.signUp({
      email,
      password: 'correct horse 1',
      options: { captchaToken: DUMMY_TOKEN },
    })
    const first = data.session!.refresh_token
    const next = await refresh(first)
    expect(next.status).toBe(200)
    expect(next.body.refresh_token).not.toBe(first)
    // eleven seconds later (AUTH_REFRESH_REUSE_INTERVAL is 10) the spent token comes back: a
    // thief or a replay
    await spentAgo(first, 11)
    const reuse = await refresh(first)
    expect(reuse.status).toBe(400)
    expect(reuse.body).toEqual({
      code: 400,
      error_code: 'refresh_token_already_used',
      msg: 'Invalid Refresh Token: Already Used',
    })
    // … so the legitimate successor is dead too, and so is the access token
    expect((await refresh(next.body.refresh_token)).status).toBe(400)
    expect(await userStatus(next.body.access_token)).toBe(403)
  })

  it('twenty refreshes of one token at once all get a working session', async () => {
    const { data } = await client().auth.signUp({
      email: unique(),
      password: 'correct horse 1',
      options: { captchaToken: DUMMY_TOKEN },
    })
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => refresh(data.session!.refresh_token)),
    )
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200))
    // one successor, handed to all of them
    const successors = new Set(answers.map((a) => a.body.refresh_token))
    expect(successors.size).toBe(1)
    expect(successors.has(data.session!.refresh_token)).toBe(false)
    for (const a of answers) expect(await userStatus(a.body.access_token)).toBe(200)
    // the successor rotates on as usual
    const [successor] = successors
    const onward = await refresh(successor!)
    expect(onward.status).toBe(200)
    expect(await userStatus(onward.body.access_token)).toBe(200)
    // within the interval the first token still answers, with the session's current token
    const late = await refresh(data.session!.refresh_token)
    expect(late.status).toBe(200)
    expect(late.body.refresh_token).toBe(onward.body.refresh_token)
  })

  it('with AUTH_REFRESH_REUSE_INTERVAL = 0 any reuse ends the session', async () => {
    const { data } = await client().auth.signUp({
      email: unique(),
      password: 'correct horse 1',
      options: { captchaToken: DUMMY_TOKEN },
    })
    const run = async (refreshToken: string) => {
      const ctx = createExecutionContext()
      const res = await app.fetch(
        new Request(`${SITE}/auth/v1/token?grant_type=refresh_token`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ refresh_token: refreshToken }),
        }),
        { ...env, AUTH_REFRESH_REUSE_INTERVAL: '0' },
        ctx,
      )
      await waitOnExecutionContext(ctx)
      return { status: res.status, body: (await res.json()) as Record<string, string> }
    }
    const next = await run(data.session!.refresh_token)
    expect(next.status).toBe(200)
    expect((await run(data.session!.refresh_token)).body.error_code).toBe(
      'refresh_token_already_used',
    )
    expect((await run(next.body.refresh_token)).status).toBe(400)
  })
})

describe('tokens the service refuses', () => {
  /** 200, or GoTrue's refusal as "status error_code: msg". */
  async function answer(res: Response) {
    if (res.status === 200) return 200
    const body = (await res.json()) as { code: number; error_code: string; msg: string }
    expect(body.code).toBe(res.status)
    return `${res.status} ${body.error_code}: ${body.msg}`
  }
  const withToken = async (token: string) =>
    answer(await api('/user', { headers: { Authorization: `Bearer ${token}` } }))
  const badJwt = (why: string) =>
    `403 bad_jwt: invalid JWT: unable to parse or verify signature, ${why}`

  it('rejects tampered, unsigned, wrongly-signed, foreign, expired and unknown-key tokens', async () => {
    const { data } = await client().auth.signUp({
      email: unique(),
      password: 'correct horse 1',
      options: { captchaToken: DUMMY_TOKEN },
    })
    const good = data.session!.access_token
    expect(await withToken(good)).toBe(200)
    const [h, p, s] = good.split('.')
    const claims = decodeJwt(good)
    const b64 = (o: object) =>
      btoa(JSON.stringify(o)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')
    // tampered payload, same signature
    expect(await withToken(`${h}.${b64({ ...claims, role: 'service_role' })}.${s}`)).toBe(
      badJwt('token signature is invalid: crypto/ecdsa: verification error'),
    )
    // alg none
    expect(await withToken(`${b64({ alg: 'none', typ: 'JWT' })}.${p}.`)).toBe(
      badJwt('token signature is invalid: signing method none is invalid'),
    )
    // not a token at all
    expect(await withToken('not-a-token')).toBe(badJwt('token is malformed'))
    // HS256 "signed" with the public key as the secret
    const { keys } = (await (await api('/.well-known/jwks.json')).json()) as { keys: object[] }
    const hs = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', kid: decodeProtectedHeader(good).kid })
      .sign(new TextEncoder().encode(JSON.stringify(keys[0])))
    expect(await withToken(hs)).toBe(
      badJwt('token signature is invalid: signing method HS256 is invalid'),
    )
    // a valid signature by a key that is not ours
    const other = await generateKeyPair('ES256', { extractable: true })
    const foreign = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: 'not-ours' })
      .sign(other.privateKey)
    expect(await withToken(foreign)).toBe(
      badJwt(
        'token is unverifiable: error while executing keyfunc: unrecognized JWT kid not-ours for algorithm ES256',
      ),
    )
    // ours, but the wrong issuer or audience, or expired: sign with a key we install as current
    const mine = await generateKeyPair('ES256', { extractable: true })
    const jwk = { ...(await exportJWK(mine.privateKey)), kid: 'test-key' }
    const signed = (over: object, exp = Math.floor(Date.now() / 1000) + 600) =>
      new SignJWT({ ...claims, ...over })
        .setProtectedHeader({ alg: 'ES256', kid: 'test-key' })
        .setExpirationTime(exp)
        .sign(mine.privateKey)
    const run = async (token: string) => {
      const ctx = createExecutionContext()
      const res = await app.fetch(
        new Request(`${SITE}/auth/v1/user`, { headers: { Authorization: `Bearer ${token}` } }),
        { ...env, AUTH_SIGNING_KEY: JSON.stringify(jwk) },
        ctx,
      )
      await waitOnExecutionContext(ctx)
      return answer(res)
    }
    expect(await run(await signed({}))).toBe(200)
    expect(await run(await signed({ iss: 'https://evil.example/auth/v1' }))).toBe(
      badJwt('token has invalid claims: token has invalid issuer'),
    )
    expect(await run(await signed({ aud: 'someone-else' }))).toBe(
      badJwt('token has invalid claims: token has invalid audience'),
    )
    expect(await run(await signed({}, Math.floor(Date.now() / 1000) - 60))).toBe(
      badJwt('token has invalid claims: token is expired'),
    )
    // no token at all is GoTrue's 401
    expect(await answer(await api('/user'))).toBe(
      '401 no_authorization: This endpoint requires a valid Bearer token',
    )
  })

  it('publishes its public keys (no private parts) and refuses a generated key in production', async () => {
    const { keys } = (await (await api('/.well-known/jwks.json')).json()) as {
      keys: Record<string, string>[]
    }
    expect(keys.length).toBeGreaterThan(0)
    for (const k of keys) {
      expect(k).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' })
      expect(k.kid).toBeTruthy()
      expect(k.d).toBeUndefined()
    }
    const ctx = createExecutionContext()
    const res = await app.fetch(
      new Request(`${SITE}/auth/v1/signup`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(withCaptcha({ email: unique(), password: 'correct horse 1' })),
      }),
      { ...env, ENVIRONMENT: 'production' },
      ctx,
    )
    await waitOnExecutionContext(ctx)
    expect(res.status).toBe(503)
    expect(((await res.json()) as { msg: string }).msg).toMatch(/AUTH_SIGNING_KEY/)
  })
})
