import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { midWindow } from '../clock'
import { DUMMY_TOKEN, withCaptchaFor } from '../challenge'
import { randomIp } from '../random-ip'
import { api, client, SITE, unique as uniqueEmail } from './helpers'
import app from '../../../worker/index'
import { signInDelay } from '../../../worker/auth-service/lockout'

const unique = () => uniqueEmail('limits')

const RATE_LIMITED = {
  code: 429,
  error_code: 'over_request_rate_limit',
  msg: 'Request rate limit reached',
}

/**
 * A post as supabase-js makes it, with its captcha where the endpoint wants one: the service
 * checks the captcha before it counts a request, so without one no limit would be met.
 */
const post = (path: string, body: unknown, ip: string) =>
  api(path, {
    method: 'POST',
    body: JSON.stringify(withCaptchaFor(path, body)),
    headers: { 'CF-Connecting-IP': ip },
  })

/**
 * Sends `count` requests one after the other from one IP; their statuses. A Workers rate limit
 * counts in fixed 60-second windows, so 2 × limit + 1 requests meet it even across a window's end.
 */
async function burst(path: string, body: unknown, ip: string, count: number) {
  const statuses: number[] = []
  let refusal: unknown
  for (let i = 0; i < count; i++) {
    const res = await post(path, body, ip)
    statuses.push(res.status)
    if (res.status === 429) refusal ??= await res.json()
  }
  return { statuses, refusal }
}

describe('per-IP request limits ([[ratelimits]] bindings)', () => {
  it('limits sign-ups to 10 a minute per IP (AUTH_SIGNUP_LIMITER)', async () => {
    const ip = randomIp()
    // weak passwords: refused after the limit is counted, so nothing is created
    const { statuses, refusal } = await burst(
      '/signup',
      { email: unique(), password: 'short' },
      ip,
      21,
    )
    expect(statuses[0]).toBe(422)
    expect(statuses).toContain(429)
    expect(refusal).toEqual(RATE_LIMITED)
    // another address is not held back
    expect((await post('/signup', { email: unique(), password: 'short' }, randomIp())).status).toBe(
      422,
    )
  })

  it('limits /otp and /recover to 10 a minute each per IP (AUTH_EMAIL_LIMITER)', async () => {
    const ip = randomIp()
    const otp = await burst('/otp', {}, ip, 21)
    expect(otp.statuses[0]).toBe(400)
    expect(otp.refusal).toEqual(RATE_LIMITED)
    // /recover counts on its own
    expect((await post('/recover', {}, ip)).status).toBe(400)
    const recover = await burst('/recover', {}, ip, 20)
    expect(recover.refusal).toEqual(RATE_LIMITED)
  })

  it('limits password sign-ins to 30 a minute per IP (AUTH_TOKEN_LIMITER)', async () => {
    const { statuses, refusal } = await burst('/token?grant_type=password', {}, randomIp(), 61)
    expect(statuses[0]).toBe(400)
    expect(refusal).toEqual(RATE_LIMITED)
  })

  it('counts an IPv6 client by its /64', async () => {
    const net = randomIp().replace(/::1$/, '')
    const { statuses } = await burst('/otp', {}, `${net}::1`, 10)
    expect(statuses).not.toContain(429)
    // the same network, another address: the same count (its next window at the latest)
    const more = await burst('/otp', {}, `${net}:1:2:3:4`, 11)
    expect(more.statuses).toContain(429)
    // an IPv4 address written as IPv6 counts as that IPv4 address
    const v4 = `198.18.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`
    await burst('/recover', {}, v4, 10)
    expect((await burst('/recover', {}, `::ffff:${v4}`, 11)).statuses).toContain(429)
  })
})

describe('failed sign-ins: nobody can lock another person out', () => {
  const signIn = (email: string, password: string, ip: string) =>
    post('/token?grant_type=password', { email, password }, ip)

  beforeEach(() => midWindow(900))
  afterEach(() => vi.useRealTimers())

  it('six wrong passwords from six IPs do not lock the owner out; the owner only waits', async () => {
    const email = unique()
    expect(
      (
        await client().auth.signUp({
          email,
          password: 'correct horse 1',
          options: { captchaToken: DUMMY_TOKEN },
        })
      ).error,
    ).toBeNull()
    for (let i = 0; i < 6; i++) {
      const wrong = await signIn(email, `wrong ${i}`, randomIp())
      expect(wrong.status).toBe(400)
      expect(await wrong.json()).toMatchObject({ error_code: 'invalid_credentials' })
    }
    // from yet another IP the right password still signs in, after a short wait
    // (AUTH_SIGNIN_SLOWDOWN_AFTER 5: six failures wait 0.5 s)
    // (the wait read on the real clock: the faked Date of midWindow advances by a timer of its
    // own, which a busy machine fires late, and read 440 ms here for the 500 ms waited)
    const started = performance.now()
    const right = await signIn(email, 'correct horse 1', randomIp())
    expect(right.status).toBe(200)
    expect(performance.now() - started).toBeGreaterThanOrEqual(450)
    expect(await right.json()).toMatchObject({ user: { email } })
  })

  it('many wrong passwords from one IP are still refused, for that IP only', async () => {
    const email = unique()
    await client().auth.signUp({
      email,
      password: 'correct horse 1',
      options: { captchaToken: DUMMY_TOKEN },
    })
    const ip = randomIp()
    const statuses = []
    for (let i = 0; i < 6; i++) statuses.push((await signIn(email, `wrong ${i}`, ip)).status)
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429])
    // even the right password waits, from that IP (AUTH_SIGNIN_PAIR_LIMIT 5)
    const refused = await signIn(email, 'correct horse 1', ip)
    expect(refused.status).toBe(429)
    expect(await refused.json()).toEqual({
      code: 429,
      error_code: 'over_request_rate_limit',
      msg: 'Too many sign-in attempts. Please try again in 15 minutes.',
    })
    // the owner elsewhere is not
    expect((await signIn(email, 'correct horse 1', randomIp())).status).toBe(200)
  })

  it('refuses an IP that fails for many addresses (AUTH_SIGNIN_IP_LIMIT, a setting)', async () => {
    const ip = randomIp()
    const attempt = async (email: string) => {
      const ctx = createExecutionContext()
      const res = await app.fetch(
        new Request(`${SITE}/auth/v1/token?grant_type=password`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'CF-Connecting-IP': ip },
          body: JSON.stringify({ email, password: 'guess 1' }),
        }),
        { ...env, AUTH_SIGNIN_IP_LIMIT: '3' },
        ctx,
      )
      await waitOnExecutionContext(ctx)
      return res.status
    }
    const statuses = []
    for (let i = 0; i < 4; i++) statuses.push(await attempt(unique()))
    expect(statuses).toEqual([400, 400, 400, 429])
  })

  it('waits a quarter second past the threshold, doubling, at most AUTH_SIGNIN_MAX_DELAY', () => {
    expect([4, 5, 6, 7, 8, 30].map((failures) => signInDelay(failures, 5, 5))).toEqual([
      0, 250, 500, 1000, 2000, 5000,
    ])
    expect(signInDelay(100, 5, 0)).toBe(0)
  })
})
