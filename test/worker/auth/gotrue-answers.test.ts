import { AuthApiError, isAuthApiError } from '@supabase/supabase-js'
import { describe, expect, it } from 'vitest'
import { DUMMY_TOKEN } from '../challenge'
import { api, client, unique as uniqueEmail } from './helpers'

const unique = () => uniqueEmail('gotrue')

/** The error a supabase-js call surfaced, as an AuthApiError's status, code and message. */
function apiError(error: unknown) {
  expect(isAuthApiError(error), String(error)).toBe(true)
  const { status, code, message } = error as AuthApiError
  return { status, code, message }
}

/** The service's raw answer: status, content type and JSON body. */
async function raw(path: string, init: RequestInit = {}) {
  const res = await api(path, init)
  return { status: res.status, type: res.headers.get('Content-Type'), body: await res.json() }
}

const signedIn = async () => {
  const supabase = client()
  const { data, error } = await supabase.auth.signUp({
    email: unique(),
    password: 'correct horse 1',
    options: { captchaToken: DUMMY_TOKEN },
  })
  expect(error).toBeNull()
  return { supabase, session: data.session! }
}

describe('what the built-in service answers where GoTrue would', () => {
  it('answers unknown paths with a JSON 404, never the site page', async () => {
    for (const [method, path] of [
      ['GET', ''],
      ['GET', '/nope'],
      ['POST', '/magic/thing'],
      ['GET', '/.well-known/openid-configuration'],
      ['DELETE', '/signup'],
    ]) {
      const res = await raw(path, { method })
      expect(res, `${method} ${path}`).toEqual({
        status: 404,
        type: 'application/json',
        body: { code: 404, error_code: 'not_found', msg: '404 page not found' },
      })
    }
    // of the admin API the built-in service has one user's read, update and deletion and the
    // creation of one (admin.ts), each behind the service role as GoTrue's: without a bearer 401
    expect((await raw('/admin/users', { method: 'POST', body: '{}' })).body).toEqual({
      code: 401,
      error_code: 'no_authorization',
      msg: 'This endpoint requires a valid Bearer token',
    })
    for (const path of ['/admin/generate_link', '/invite'])
      expect((await raw(path, { method: 'POST', body: '{}' })).body).toEqual({
        code: 404,
        error_code: 'not_found',
        msg: 'The built-in auth service has no such admin API',
      })
    // supabase-js surfaces it as an AuthApiError
    const admin = await client().auth.admin.listUsers()
    expect(apiError(admin.error)).toEqual({
      status: 404,
      code: 'not_found',
      message: 'The built-in auth service has no such admin API',
    })
  })

  it('answers /health and /settings as GoTrue does', async () => {
    expect(await raw('/health')).toMatchObject({
      status: 200,
      body: { name: 'GoTrue', description: 'GoTrue is a user registration and authentication API' },
    })
    const { body } = await raw('/settings')
    const settings = body as { external: Record<string, boolean> } & Record<string, unknown>
    expect(settings).toMatchObject({
      disable_signup: false,
      mailer_autoconfirm: true,
      phone_autoconfirm: false,
      sms_provider: '',
      saml_enabled: false,
      passkeys_enabled: false,
    })
    // only e-mail is on
    const on = Object.entries(settings.external).filter(([, enabled]) => enabled)
    expect(on).toEqual([['email', true]])
    for (const provider of ['google', 'github', 'apple', 'azure', 'phone', 'anonymous_users'])
      expect(settings.external[provider], provider).toBe(false)
  })

  it('refuses anonymous sign-in, as GoTrue with it switched off', async () => {
    const { error } = await client().auth.signInAnonymously({
      options: { captchaToken: DUMMY_TOKEN },
    })
    expect(apiError(error)).toEqual({
      status: 422,
      code: 'anonymous_provider_disabled',
      message: 'Anonymous sign-ins are disabled',
    })
  })

  it('refuses phone sign-up, sign-in and codes, as GoTrue without a phone provider', async () => {
    const phone = '+15555550123'
    const supabase = client()
    expect(
      apiError(
        (
          await supabase.auth.signUp({
            phone,
            password: 'correct horse 1',
            options: { captchaToken: DUMMY_TOKEN },
          })
        ).error,
      ),
    ).toEqual({
      status: 400,
      code: 'phone_provider_disabled',
      message: 'Phone signups are disabled',
    })
    expect(
      apiError(
        (await supabase.auth.signInWithPassword({ phone, password: 'correct horse 1' })).error,
      ),
    ).toEqual({
      status: 422,
      code: 'phone_provider_disabled',
      message: 'Phone logins are disabled',
    })
    expect(
      apiError(
        (await supabase.auth.signInWithOtp({ phone, options: { captchaToken: DUMMY_TOKEN } }))
          .error,
      ),
    ).toEqual({
      status: 400,
      code: 'phone_provider_disabled',
      message: 'Unsupported phone provider',
    })
    expect(
      apiError((await supabase.auth.verifyOtp({ phone, token: '123456', type: 'sms' })).error),
    ).toEqual({ status: 403, code: 'otp_expired', message: 'Token has expired or is invalid' })
    expect(
      apiError(
        (await supabase.auth.resend({ phone, type: 'sms', options: { captchaToken: DUMMY_TOKEN } }))
          .error,
      ),
    ).toEqual({
      status: 400,
      code: 'phone_provider_disabled',
      message: 'Phone logins are disabled',
    })
  })

  it('refuses SSO, passkeys, the OAuth server and OAuth providers', async () => {
    const supabase = client()
    expect(apiError((await supabase.auth.signInWithSSO({ domain: 'example.org' })).error)).toEqual({
      status: 404,
      code: 'saml_provider_disabled',
      message: 'SAML 2.0 is disabled',
    })
    expect((await raw('/sso/saml/metadata')).body).toEqual({
      code: 404,
      error_code: 'saml_provider_disabled',
      msg: 'SAML 2.0 is disabled',
    })
    expect(
      (await raw('/passkeys/authentication/options', { method: 'POST', body: '{}' })).body,
    ).toEqual({ code: 404, error_code: 'passkey_disabled', msg: 'Passkeys are disabled' })
    expect((await raw('/oauth/clients/register', { method: 'POST', body: '{}' })).body).toEqual({
      code: 404,
      error_code: 'feature_disabled',
      msg: 'OAuth server is disabled',
    })
    expect((await raw('/authorize?provider=google')).body).toEqual({
      code: 400,
      error_code: 'validation_failed',
      msg: 'Unsupported provider: provider is not enabled',
    })
    expect((await raw('/authorize?provider=myspace')).body).toMatchObject({
      msg: 'Unsupported provider: Provider myspace could not be found',
    })
    const idToken = await supabase.auth.signInWithIdToken({ provider: 'google', token: 'a.b.c' })
    expect(apiError(idToken.error)).toEqual({
      status: 400,
      code: 'provider_disabled',
      message: 'Provider (issuer "https://accounts.google.com") is not enabled',
    })
    const web3 = await raw('/token?grant_type=web3', { method: 'POST', body: '{}' })
    expect(web3.body).toEqual({
      code: 422,
      error_code: 'web3_provider_disabled',
      msg: 'Web3 provider is disabled',
    })
    expect((await raw('/token?grant_type=magic', { method: 'POST', body: '{}' })).body).toEqual({
      code: 400,
      error_code: 'invalid_credentials',
      msg: 'unsupported_grant_type',
    })
  })

  it('refuses identity linking: signed in, then manual_linking_disabled', async () => {
    expect((await raw('/user/identities/authorize?provider=google')).status).toBe(401)
    const { supabase, session } = await signedIn()
    const linked = await supabase.auth.linkIdentity({ provider: 'google' })
    expect(apiError(linked.error)).toEqual({
      status: 404,
      code: 'manual_linking_disabled',
      message: 'Manual linking is disabled',
    })
    const identity = session.user.identities![0]!
    const unlinked = await supabase.auth.unlinkIdentity(identity)
    expect(apiError(unlinked.error)).toMatchObject({ status: 404, code: 'manual_linking_disabled' })
    const byIdToken = await supabase.auth.linkIdentity({ provider: 'google', token: 'a.b.c' })
    expect(apiError(byIdToken.error)).toMatchObject({ status: 400, code: 'provider_disabled' })
  })

  it('refuses WebAuthn and phone factors, as GoTrue with them switched off', async () => {
    const { supabase } = await signedIn()
    expect(apiError((await supabase.auth.mfa.enroll({ factorType: 'webauthn' })).error)).toEqual({
      status: 422,
      code: 'mfa_webauthn_enroll_not_enabled',
      message: 'MFA enroll is disabled for WebAuthn',
    })
    const phone = await supabase.auth.mfa.enroll({ factorType: 'phone', phone: '+15555550123' })
    expect(apiError(phone.error)).toEqual({
      status: 422,
      code: 'mfa_phone_enroll_not_enabled',
      message: 'MFA enroll is disabled for Phone',
    })
  })

  it('answers a bad bearer token on /user and /logout with 403 bad_jwt', async () => {
    const { supabase, session } = await signedIn()
    const [header, payload, signature] = session.access_token.split('.')
    const forged = `${header}.${payload!.slice(0, -4)}AAAA.${signature}`
    const expected = {
      status: 403,
      code: 'bad_jwt',
      message: expect.stringMatching(/^invalid JWT: unable to parse or verify signature, /),
    }
    expect(apiError((await supabase.auth.getUser(forged)).error)).toEqual(expected)
    expect(apiError((await supabase.auth.admin.signOut(forged)).error)).toEqual(expected)
    expect(apiError((await supabase.auth.admin.signOut('not-a-token')).error)).toEqual({
      status: 403,
      code: 'bad_jwt',
      message: 'invalid JWT: unable to parse or verify signature, token is malformed',
    })
    // supabase-js's own signOut() takes a 401, 403 or 404 as "signed out already" (auth-js
    // _signOut): after the session was ended elsewhere it reports no error and drops the session
    const ended = await api('/logout?scope=global', {
      method: 'POST',
      headers: { Authorization: `Bearer ${session.access_token}` },
    })
    expect(ended.status).toBe(204)
    // GoTrue's 403 session_not_found, which supabase-js reports as a missing session
    expect(
      (await raw('/user', { headers: { Authorization: `Bearer ${session.access_token}` } })).body,
    ).toEqual({
      code: 403,
      error_code: 'session_not_found',
      msg: 'Session from session_id claim in JWT does not exist',
    })
    expect((await supabase.auth.getUser(session.access_token)).error?.name).toBe(
      'AuthSessionMissingError',
    )
    expect((await supabase.auth.signOut()).error).toBeNull()
    expect((await supabase.auth.getSession()).data.session).toBeNull()
  })
})
