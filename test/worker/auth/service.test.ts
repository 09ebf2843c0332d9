import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, SignJWT } from 'jose'
import { describe, expect, it } from 'vitest'
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
      options: { data: { name: 'Ada' } },
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
    // the session is over: its tokens no longer work
    const after = await api('/user', {
      headers: { Authorization: `Bearer ${refreshed.data.session!.access_token}` },
    })
    expect(after.status).toBe(401)
  })

  it('answers wrong passwords and duplicates with GoTrue error shapes', async () => {
    const email = unique()
    await client().auth.signUp({ email, password: 'correct horse 1' })
    const wrong = await client().auth.signInWithPassword({ email, password: 'nope nope nope' })
    expect(wrong.error).toMatchObject({
      status: 400,
      code: 'invalid_credentials',
      message: 'Invalid login credentials',
    })
    const again = await client().auth.signUp({ email, password: 'correct horse 1' })
    expect(again.error).toMatchObject({ status: 422, code: 'user_already_exists' })
    const weak = await client().auth.signUp({ email: unique(), password: 'short' })
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

describe('refresh tokens', () => {
  it('rotate, and a reused one ends the whole session', async () => {
    const email = unique()
    const { data } = await client().auth.signUp({ email, password: 'correct horse 1' })
    const first = data.session!.refresh_token
    const next = (await (
      await api('/token?grant_type=refresh_token', {
        method: 'POST',
        body: JSON.stringify({ refresh_token: first }),
      })
    ).json()) as { refresh_token: string; access_token: string }
    expect(next.refresh_token).not.toBe(first)
    // the spent token comes back: a thief or a replay
    const reuse = await api('/token?grant_type=refresh_token', {
      method: 'POST',
      body: JSON.stringify({ refresh_token: first }),
    })
    expect(reuse.status).toBe(400)
    expect(await reuse.json()).toMatchObject({ error_code: 'refresh_token_already_used' })
    // … so the legitimate successor is dead too, and so is the access token
    const successor = await api('/token?grant_type=refresh_token', {
      method: 'POST',
      body: JSON.stringify({ refresh_token: next.refresh_token }),
    })
    expect(successor.status).toBe(400)
    expect(
      (await api('/user', { headers: { Authorization: `Bearer ${next.access_token}` } })).status,
    ).toBe(401)
  })

  it('lets only one of two simultaneous uses succeed', async () => {
    const { data } = await client().auth.signUp({ email: unique(), password: 'correct horse 1' })
    const answers = await Promise.all(
      [0, 1].map(() =>
        api('/token?grant_type=refresh_token', {
          method: 'POST',
          body: JSON.stringify({ refresh_token: data.session!.refresh_token }),
        }),
      ),
    )
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400])
  })
})

describe('tokens the service refuses', () => {
  async function withToken(token: string) {
    return (await api('/user', { headers: { Authorization: `Bearer ${token}` } })).status
  }

  it('rejects tampered, unsigned, wrongly-signed, foreign, expired and unknown-key tokens', async () => {
    const { data } = await client().auth.signUp({ email: unique(), password: 'correct horse 1' })
    const good = data.session!.access_token
    expect(await withToken(good)).toBe(200)
    const [h, p, s] = good.split('.')
    const claims = decodeJwt(good)
    const b64 = (o: object) =>
      btoa(JSON.stringify(o)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')
    // tampered payload, same signature
    expect(await withToken(`${h}.${b64({ ...claims, role: 'service_role' })}.${s}`)).toBe(401)
    // alg none
    expect(await withToken(`${b64({ alg: 'none', typ: 'JWT' })}.${p}.`)).toBe(401)
    // HS256 "signed" with the public key as the secret
    const { keys } = (await (await api('/.well-known/jwks.json')).json()) as { keys: object[] }
    const hs = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', kid: decodeProtectedHeader(good).kid })
      .sign(new TextEncoder().encode(JSON.stringify(keys[0])))
    expect(await withToken(hs)).toBe(401)
    // a valid signature by a key that is not ours
    const other = await generateKeyPair('ES256', { extractable: true })
    const foreign = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: 'not-ours' })
      .sign(other.privateKey)
    expect(await withToken(foreign)).toBe(401)
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
      return res.status
    }
    expect(await run(await signed({}))).toBe(200)
    expect(await run(await signed({ iss: 'https://evil.example/auth/v1' }))).toBe(401)
    expect(await run(await signed({ aud: 'someone-else' }))).toBe(401)
    expect(await run(await signed({}, Math.floor(Date.now() / 1000) - 60))).toBe(401)
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
        body: JSON.stringify({ email: unique(), password: 'correct horse 1' }),
      }),
      { ...env, ENVIRONMENT: 'production' },
      ctx,
    )
    await waitOnExecutionContext(ctx)
    expect(res.status).toBe(503)
    expect(((await res.json()) as { msg: string }).msg).toMatch(/AUTH_SIGNING_KEY/)
  })
})

describe('throttling', () => {
  it('answers 429 after five failed sign-ins for one e-mail', async () => {
    const email = unique()
    await client().auth.signUp({ email, password: 'correct horse 1' })
    const statuses = []
    for (let i = 0; i < 6; i++)
      statuses.push(
        (
          await api('/token?grant_type=password', {
            method: 'POST',
            body: JSON.stringify({ email, password: `wrong ${i}` }),
          })
        ).status,
      )
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429])
    // even the right password waits now
    const right = await api('/token?grant_type=password', {
      method: 'POST',
      body: JSON.stringify({ email, password: 'correct horse 1' }),
    })
    expect(right.status).toBe(429)
    expect(await right.json()).toMatchObject({ code: 429, error_code: 'over_request_rate_limit' })
  })
})
