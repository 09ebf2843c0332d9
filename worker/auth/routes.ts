import { Hono, type Context } from 'hono'
import { getCookie } from 'hono/cookie'
import * as v from 'valibot'
import type { AppEnv } from '../env'
import { formFields, readForm } from '../api/forms'
import { flash } from '../render/flash'
import { MIN_PASSWORD_LENGTH, weakPassword } from '../auth-service/gotrue'
import { authForm, formEmail, guard, sixDigits } from './forms'
import { completeSignIn, type ServiceTokens } from './mfa'
import { SIGNED_IN_ONLY } from '../routes'
import { ACCESS_COOKIE, callAuth, forgetSession, signedInOnly } from './session'

/**
 * The site's side of sign-in (a backend-for-frontend): the /auth page's forms post here, the
 * worker talks to the auth service and keeps the session in HttpOnly cookies.
 */
export const authRoutes = new Hono<AppEnv>()

const Credentials = v.object({
  email: v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(254)),
  password: v.pipe(v.string(), v.nonEmpty(), v.maxLength(200)),
  next: v.optional(v.string()),
})

/** Only our own paths as a place to go after signing in. */
const safeNext = (next: string | undefined) =>
  next && /^\/(?!\/)[\w\-/?=&]*$/.test(next) ? next : '/'

/** Back to the sign-in page with the service's message, the form's mode and e-mail kept. */
function backToForm(c: Context<AppEnv>, mode: 'sign-in' | 'sign-up', error: string, email = '') {
  const q = new URLSearchParams({ mode, error, email })
  return c.redirect(`/auth?${q}`, 303)
}

async function startSession(c: Context<AppEnv>, mode: 'sign-in' | 'sign-up') {
  const input = await readForm(c, Credentials)
  if (!input) return backToForm(c, mode, 'missing')
  const path = mode === 'sign-in' ? '/token?grant_type=password' : '/signup'
  let res: Response
  try {
    res = await callAuth(c, path, {
      method: 'POST',
      body: JSON.stringify({ email: input.email, password: input.password }),
    })
  } catch {
    return backToForm(c, mode, 'unavailable', input.email)
  }
  const body = (await res.json().catch(() => ({}))) as Partial<ServiceTokens> & {
    error_code?: string
  }
  if (!res.ok || !body.access_token)
    return backToForm(c, mode, body.error_code ?? 'unavailable', input.email)
  return completeSignIn(c, body as ServiceTokens, safeNext(input.next), {
    title: c.var.t(mode === 'sign-in' ? 'auth.signed_in_title' : 'auth.signed_up_title'),
    description: input.email,
  })
}

authRoutes.post('/sign-in', ...authForm, (c) => startSession(c, 'sign-in'))
authRoutes.post('/sign-up', ...authForm, (c) => startSession(c, 'sign-up'))

authRoutes.post('/sign-out', ...guard, async (c) => {
  const t = c.var.t
  const access = getCookie(c, ACCESS_COOKIE)
  let failure = ''
  if (access) {
    try {
      const res = await callAuth(c, '/logout?scope=local', {
        method: 'POST',
        headers: { Authorization: `Bearer ${access}` },
      })
      // an already-ended session is signed out all the same
      if (!res.ok && res.status !== 401)
        failure =
          ((await res.json().catch(() => ({}))) as { msg?: string }).msg ?? `HTTP ${res.status}`
    } catch (err) {
      failure = err instanceof Error ? err.message : String(err)
    }
  }
  forgetSession(c)
  flash(
    c,
    failure
      ? { title: t('auth.sign_out_error'), description: failure, variant: 'destructive' }
      : { title: t('auth.signed_out_title'), description: t('auth.signed_out_text') },
  )
  const back = new URL(c.req.header('Referer') ?? '/', c.req.url)
  return c.redirect(
    // back where the visitor was, unless that page is for signed-in visitors (or sign-in) only
    back.origin === new URL(c.req.url).origin &&
      !back.pathname.startsWith('/auth') &&
      !SIGNED_IN_ONLY.includes(back.pathname)
      ? back.pathname
      : '/',
    303,
  )
})

const EmailOnly = v.object({ email: v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(254)) })
const Reset = v.object({
  token: v.pipe(v.string(), v.minLength(20), v.maxLength(200)),
  password: v.pipe(v.string(), v.maxLength(200)),
})

authRoutes.post('/recover', ...authForm, async (c) => {
  const input = await readForm(c, EmailOnly)
  if (!input) return c.redirect('/auth?mode=forgot&error=missing', 303)
  try {
    await callAuth(c, '/recover', {
      method: 'POST',
      body: JSON.stringify({ email: input.email }),
    })
  } catch {
    return c.redirect('/auth?mode=forgot&error=unavailable', 303)
  }
  return c.redirect('/auth?mode=forgot&sent=1', 303)
})

/** The e-mailed link's form: spend the one-time token, then set the new password. */
authRoutes.post('/reset', ...authForm, async (c) => {
  const input = await readForm(c, Reset)
  if (!input) return c.redirect('/auth?mode=forgot&error=otp_expired', 303)
  const back = (error: string) =>
    c.redirect(`/auth/reset?${new URLSearchParams({ token: input.token, error })}`, 303)
  if (weakPassword(input.password)) return back('weak_password')
  try {
    const verified = await callAuth(c, '/verify', {
      method: 'POST',
      body: JSON.stringify({ type: 'recovery', token_hash: input.token }),
    })
    if (!verified.ok) return c.redirect('/auth?mode=forgot&error=otp_expired', 303)
    const tokens = (await verified.json()) as ServiceTokens
    const updated = await callAuth(c, '/user', {
      method: 'PUT',
      headers: { Authorization: `Bearer ${tokens.access_token}` },
      body: JSON.stringify({ password: input.password }),
    })
    if (!updated.ok) return c.redirect('/auth?mode=forgot&error=unavailable', 303)
    // an account with an authenticator app still needs its code to be signed in
    return completeSignIn(c, tokens, '/', { title: c.var.t('auth.password_updated') })
  } catch {
    return c.redirect('/auth?mode=forgot&error=unavailable', 303)
  }
})

/** What the browser's session check asks every 30 s (the session middleware refreshed already). */
authRoutes.get('/session', (c) => {
  c.header('Cache-Control', 'no-store')
  return c.json({ signedIn: Boolean(c.var.user), email: c.var.user?.email ?? null })
})

const NewPassword = v.object({
  password: v.pipe(v.string(), v.minLength(MIN_PASSWORD_LENGTH), v.maxLength(200)),
})

/** The account page's new password, set with the visitor's own access token. */
authRoutes.post('/password', ...guard, signedInOnly, async (c) => {
  const input = await readForm(c, NewPassword)
  if (!input) return c.redirect('/account?error=weak_password', 303)
  const { password } = input
  try {
    const res = await callAuth(c, '/user', {
      method: 'PUT',
      headers: { Authorization: `Bearer ${c.var.accessToken}` },
      body: JSON.stringify({ password }),
    })
    if (!res.ok) return c.redirect('/account?error=unavailable', 303)
  } catch {
    return c.redirect('/account?error=unavailable', 303)
  }
  flash(c, { title: c.var.t('auth.password_updated') })
  return c.redirect('/account', 303)
})

const MagicLink = v.object({ email: formEmail })

/** "E-mail me a sign-in link": the service sends a link and a code to an existing account. */
authRoutes.post('/magic-link', ...authForm, async (c) => {
  const input = await readForm(c, MagicLink)
  if (!input) return c.redirect('/auth?mode=magic&error=missing_email', 303)
  const email = input.email
  try {
    const res = await callAuth(c, '/otp', {
      method: 'POST',
      body: JSON.stringify({ email, create_user: false }),
    })
    const { error_code } = (await res.json().catch(() => ({}))) as { error_code?: string }
    // An unknown address (otp_disabled) hears the same as a known one: nobody learns who has
    // an account. Too many e-mails in a row is worth saying.
    if (!res.ok && error_code !== 'otp_disabled')
      return c.redirect(
        `/auth?${new URLSearchParams({ mode: 'magic', error: error_code ?? 'unavailable', email })}`,
        303,
      )
  } catch {
    return c.redirect('/auth?mode=magic&error=unavailable', 303)
  }
  return c.redirect(`/auth?${new URLSearchParams({ mode: 'magic', sent: '1', email })}`, 303)
})

const MagicCode = v.object({
  email: formEmail,
  code: sixDigits,
})

/** The six-digit code from the same e-mail, typed in instead of following the link. */
authRoutes.post('/magic-code', ...authForm, async (c) => {
  const fields = await formFields(c)
  const parsed = v.safeParse(MagicCode, fields)
  const email = fields.email ?? ''
  const back = (error: string) =>
    c.redirect(`/auth?${new URLSearchParams({ mode: 'magic', sent: '1', error, email })}`, 303)
  if (!parsed.success) return back('invalid_code')
  return spend(c, { type: 'email', email: parsed.output.email, token: parsed.output.code }, back)
})

const Confirm = v.object({
  token_hash: v.pipe(v.string(), v.minLength(20), v.maxLength(200)),
  type: v.literal('magiclink'),
})

/** The e-mailed link's button (a POST, so mail scanners that open links do not spend it). */
authRoutes.post('/confirm', ...authForm, async (c) => {
  const input = await readForm(c, Confirm)
  const back = () => c.redirect('/auth?mode=magic&error=otp_expired', 303)
  if (!input) return back()
  return spend(c, input, back)
})

/** Spends a link or code at the service's /verify; its session is the visitor's. */
async function spend(
  c: Context<AppEnv>,
  verify: Record<string, string>,
  back: (error: string) => Response,
) {
  try {
    const res = await callAuth(c, '/verify', { method: 'POST', body: JSON.stringify(verify) })
    const body = (await res.json().catch(() => ({}))) as Partial<ServiceTokens> & {
      error_code?: string
    }
    if (!res.ok || !body.access_token)
      return back(
        body.error_code === 'otp_expired' && 'token' in verify
          ? 'invalid_code'
          : (body.error_code ?? 'unavailable'),
      )
    return completeSignIn(c, body as ServiceTokens, '/', {
      title: c.var.t('auth.signed_in_title'),
      description: body.user!.email,
    })
  } catch {
    return back('unavailable')
  }
}
