import { SELF } from 'cloudflare:test'
import { decodeJwt } from 'jose'
import { describe, expect, it, onTestFinished, vi } from 'vitest'
import { midWindow } from '../clock'
import { DUMMY_TOKEN } from '../challenge'
import { client, codeFor, SITE, unique as uniqueEmail } from './helpers'
import en from '../../../locales/en.json'

const unique = () => uniqueEmail('mfa')

describe('TOTP factors with @supabase/supabase-js', () => {
  it('enrols, challenges and verifies to aal2; a code works once; unenrol needs aal2', async () => {
    const supabase = client()
    const email = unique()
    expect(
      (
        await supabase.auth.signUp({
          email,
          password: 'correct horse 1',
          options: { captchaToken: DUMMY_TOKEN },
        })
      ).error,
    ).toBeNull()

    const enrolled = await supabase.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone' })
    expect(enrolled.error).toBeNull()
    const { id, totp } = enrolled.data as { id: string; totp: Record<string, string> }
    expect(totp.qr_code).toMatch(/^data:image\/svg\+xml;utf-8,<svg /)
    expect(totp.secret).toMatch(/^[A-Z2-7]{32}$/)
    expect(totp.uri).toContain(`otpauth://totp/${encodeURIComponent(en.meta.site_name)}:`)
    // enrolling again under the same name replaces the one never confirmed
    const twice = await supabase.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone' })
    expect(twice.error).toBeNull()
    const factorId = (twice.data as { id: string }).id
    const secret = (twice.data as { totp: { secret: string } }).totp.secret
    expect(factorId).not.toBe(id)

    const wrong = await supabase.auth.mfa.challengeAndVerify({ factorId, code: '000000' })
    expect(wrong.error?.code).toBe('mfa_verification_failed')
    expect(wrong.error?.status).toBe(422)

    const challenge = await supabase.auth.mfa.challenge({ factorId })
    expect(challenge.error).toBeNull()
    expect(challenge.data!.expires_at).toBeGreaterThan(Date.now() / 1000)
    const code = codeFor(secret)
    const verified = await supabase.auth.mfa.verify({
      factorId,
      challengeId: challenge.data!.id,
      code,
    })
    expect(verified.error).toBeNull()
    const claims = decodeJwt(verified.data!.access_token)
    expect(claims.aal).toBe('aal2')
    expect((claims.amr as { method: string }[]).map((m) => m.method)).toEqual(['totp', 'password'])
    const level = await supabase.auth.mfa.getAuthenticatorAssuranceLevel()
    expect(level.data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' })
    const listed = await supabase.auth.mfa.listFactors()
    expect(listed.data?.totp.map((f) => [f.friendly_name, f.status])).toEqual([
      ['Phone', 'verified'],
    ])

    // the same code again (a replay) is refused, on a fresh challenge too
    const replay = await supabase.auth.mfa.challengeAndVerify({ factorId, code })
    expect(replay.error?.code).toBe('mfa_verification_failed')

    // a refreshed aal2 session stays aal2
    const refreshed = await supabase.auth.refreshSession()
    expect(decodeJwt(refreshed.data.session!.access_token).aal).toBe('aal2')

    // a new password sign-in is aal1, and the client knows aal2 is due
    const other = client()
    await other.auth.signInWithPassword({ email, password: 'correct horse 1' })
    expect((await other.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({
      currentLevel: 'aal1',
      nextLevel: 'aal2',
    })
    const early = await other.auth.mfa.unenroll({ factorId })
    expect(early.error).toMatchObject({ status: 422, code: 'insufficient_aal' })
    // GoTrue refuses a second factor at aal1 with 403
    const second = await other.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Tablet' })
    expect(second.error).toMatchObject({
      status: 403,
      code: 'insufficient_aal',
      message: 'AAL2 required to enroll a new factor',
    })
    const next = await other.auth.mfa.challengeAndVerify({ factorId, code: codeFor(secret, 1) })
    expect(next.error).toBeNull()
    const removed = await other.auth.mfa.unenroll({ factorId })
    expect(removed.error).toBeNull()
    expect((await other.auth.mfa.listFactors()).data?.all).toEqual([])
  })

  it('answers GoTrue errors for unknown factors, bad bodies and missing tokens', async () => {
    const supabase = client()
    await supabase.auth.signUp({
      email: unique(),
      password: 'correct horse 1',
      options: { captchaToken: DUMMY_TOKEN },
    })
    const unknown = await supabase.auth.mfa.challenge({ factorId: crypto.randomUUID() })
    expect(unknown.error?.code).toBe('mfa_factor_not_found')
    const { data } = await supabase.auth.getSession()
    const bad = await SELF.fetch(`${SITE}/auth/v1/factors`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Authorization: `Bearer ${data.session!.access_token}`,
      },
      body: JSON.stringify({ factor_type: 'sms' }),
    })
    expect(bad.status).toBe(400)
    expect(await bad.json()).toMatchObject({ code: 400, error_code: 'validation_failed' })
    const anonymous = await SELF.fetch(`${SITE}/auth/v1/factors`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ factor_type: 'totp' }),
    })
    expect(anonymous.status).toBe(401)
  })

  it('stops accepting codes after five wrong ones', async () => {
    midWindow(900)
    onTestFinished(() => {
      vi.useRealTimers()
    })
    const supabase = client()
    await supabase.auth.signUp({
      email: unique(),
      password: 'correct horse 1',
      options: { captchaToken: DUMMY_TOKEN },
    })
    const { data } = await supabase.auth.mfa.enroll({ factorType: 'totp' })
    const factorId = (data as { id: string }).id
    const secret = (data as { totp: { secret: string } }).totp.secret
    for (let i = 0; i < 5; i++)
      expect(
        (await supabase.auth.mfa.challengeAndVerify({ factorId, code: '12345' + i })).error?.code,
      ).toBe('mfa_verification_failed')
    const right = await supabase.auth.mfa.challengeAndVerify({ factorId, code: codeFor(secret) })
    expect(right.error?.status).toBe(429)
  })
})
