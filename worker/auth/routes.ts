import { Hono, type Context } from 'hono'
import { getCookie } from 'hono/cookie'
import * as v from 'valibot'
import type { AppEnv } from '../env'
import { formFields, readForm } from '../api/forms'
import { flash } from '../render/flash'
import { MIN_PASSWORD_LENGTH, weakPassword } from '../../client/schemas/auth'
import { authForm, formEmail, guard, sixDigits } from './forms'
import { authClient } from './client'
import { completeSignIn } from './mfa'
import { needsSecondStep, toSecondStep } from './second-step'
import { toAccount, toAuthPage } from './redirects'
import { SIGNED_IN_ONLY } from '../routes'
import { TOKEN_FIELD } from '../challenge/turnstile'
import { renderAuthPage } from '../pages/auth'
import { ACCESS_COOKIE, forgetSession, signedInOnly } from './session'

/**
 * The site's side of sign-in (a backend-for-frontend): the /auth page's forms post here, the
 * worker talks to the auth service and keeps the session in HttpOnly cookies.
 */
export const authRoutes = new Hono<AppEnv>()

/** The widget's token, passed on to the auth service (which checks it, as GoTrue does). */
const captchaField = { [TOKEN_FIELD]: v.optional(v.pipe(v.string(), v.maxLength(4096))) }

const Credentials = v.object({
  email: v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(254)),
  password: v.pipe(v.string(), v.nonEmpty(), v.maxLength(200)),
  next: v.optional(v.string()),
  ...captchaField,
})

/**
 * The service's refusal of a form without a token: a browser without JavaScript, which cannot
 * run the check (said so), or a token it refused.
 */
const challengeError = (code: string, token: string | undefined) =>
  code === 'captcha_failed' && !token ? 'challenge_needs_script' : code

/** Only our own paths as a place to go after signing in. */
const safeNext = (next: string | undefined) =>
  next && /^\/(?!\/)[\w\-/?=&]*$/.test(next) ? next : '/'

async function startSession(c: Context<AppEnv>, mode: 'sign-in' | 'sign-up') {
  const input = await readForm(c, Credentials)
  if (!input) return toAuthPage(c, mode, { error: 'missing', email: '' })
  const auth = authClient(c)
  const token = input[TOKEN_FIELD]
  const res =
    mode === 'sign-in'
      ? await auth.signIn(input.email, input.password)
      : await auth.signUp(input.email, input.password, token)
  // a provider that confirms addresses answers a sign-up with the user alone, and e-mails a link
  if (res.ok && !res.data?.access_token && res.data && 'id' in res.data)
    return toAuthPage(c, 'sign-up', { sent: true, email: input.email })
  const error = res.ok ? 'unavailable' : challengeError(res.code, token)
  // sent without a token (pressed before the page's scripts came, or without JavaScript): the
  // form again as typed, the password too (to this browser, in this answer only, never in an
  // address), which sends itself once the page's scripts run (pages/auth.tsx)
  if (mode === 'sign-up' && error === 'challenge_needs_script')
    return renderAuthPage(c, {
      mode,
      error,
      email: input.email,
      password: input.password,
      next: input.next,
    })
  if (!res.ok || !res.data?.access_token) return toAuthPage(c, mode, { error, email: input.email })
  return completeSignIn(c, res.data, safeNext(input.next), {
    title: c.var.t(mode === 'sign-in' ? 'auth.signed_in_title' : 'auth.signed_up_title'),
    description: input.email,
  })
}

authRoutes.post('/sign-in', ...authForm, (c) => startSession(c, 'sign-in'))
authRoutes.post('/sign-up', ...authForm, (c) => startSession(c, 'sign-up'))

/** Sign-out: this device, or (`scope=global`, from the account page) every device. */
const SignOut = v.object({ scope: v.optional(v.picklist(['global'])) })

authRoutes.post('/sign-out', ...guard, async (c) => {
  const t = c.var.t
  const access = getCookie(c, ACCESS_COOKIE)
  const everywhere = (await readForm(c, SignOut))?.scope === 'global'
  let failure = ''
  if (access) {
    const res = await authClient(c).signOut(access, everywhere ? 'global' : 'local')
    // an already-ended session or a token the service refuses is signed out all the same
    if (!res.ok && res.status !== 401 && res.status !== 403) failure = res.msg
  }
  forgetSession(c)
  flash(
    c,
    failure
      ? { title: t('auth.sign_out_error'), description: failure, variant: 'destructive' }
      : {
          title: t('auth.signed_out_title'),
          description: t(everywhere ? 'auth.signed_out_everywhere_text' : 'auth.signed_out_text'),
        },
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

const EmailOnly = v.object({
  email: v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(254)),
  ...captchaField,
})
const Reset = v.object({
  token: v.pipe(v.string(), v.minLength(20), v.maxLength(200)),
  password: v.pipe(v.string(), v.maxLength(200)),
})

authRoutes.post('/recover', ...authForm, async (c) => {
  const input = await readForm(c, EmailOnly)
  if (!input) return toAuthPage(c, 'forgot', { error: 'missing' })
  const token = input[TOKEN_FIELD]
  const res = await authClient(c).recover(input.email, token)
  // an unknown address hears what a known one does; an unreachable service is worth saying
  if (!res.ok && res.status >= 500) return toAuthPage(c, 'forgot', { error: 'unavailable' })
  if (!res.ok && res.code === 'captcha_failed')
    return toAuthPage(c, 'forgot', { error: challengeError(res.code, token), email: input.email })
  return toAuthPage(c, 'forgot', { sent: true })
})

/** The e-mailed link's form: spend the one-time token, then set the new password. */
authRoutes.post('/reset', ...authForm, async (c) => {
  const input = await readForm(c, Reset)
  if (!input) return toAuthPage(c, 'forgot', { error: 'otp_expired' })
  const back = (error: string) =>
    c.redirect(`/auth/reset?${new URLSearchParams({ token: input.token, error })}`, 303)
  if (weakPassword(input.password)) return back('weak_password')
  const auth = authClient(c)
  const verified = await auth.verify({ type: 'recovery', token_hash: input.token })
  if (!verified.ok)
    return toAuthPage(c, 'forgot', {
      error: verified.status >= 500 ? 'unavailable' : 'otp_expired',
    })
  const tokens = verified.data
  // An account with an authenticator app changes its password only after its code (aal2): the
  // code step first, then the account page's password form. The password typed here is not
  // kept anywhere meanwhile: it is asked again.
  if (needsSecondStep(tokens.user, tokens.access_token))
    return toSecondStep(c, tokens, '/account?reset=1#password')
  // The service ends every other session with the new password: a stolen cookie, or a shared
  // computer, is signed out by the reset.
  const updated = await auth.updateUser(tokens.access_token, { password: input.password })
  if (!updated.ok) return toAuthPage(c, 'forgot', { error: 'unavailable' })
  return completeSignIn(c, tokens, '/', {
    title: c.var.t('auth.password_updated'),
    description: c.var.t('auth.password_updated_others'),
  })
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
  if (!input) return toAccount(c, 'weak_password', 'password')
  const res = await authClient(c).updateUser(c.var.accessToken!, { password: input.password })
  if (!res.ok) return toAccount(c, res.status < 500 ? res.code : 'unavailable', 'password')
  // every other session ended with it (the service's, as GoTrue's); this one goes on
  flash(c, {
    title: c.var.t('auth.password_updated'),
    description: c.var.t('auth.password_updated_others'),
  })
  return c.redirect('/account', 303)
})

const NewEmail = v.object({ email: formEmail })

/**
 * The account page's new address. The service only asks: it e-mails a link to the new address
 * (and one to the current address), and the address changes when they are used (/confirm).
 */
authRoutes.post('/email', ...authForm, signedInOnly, async (c) => {
  const input = await readForm(c, NewEmail)
  if (!input) return toAccount(c, 'invalid_email', 'email')
  const email = input.email.toLowerCase()
  const current = c.var.account?.email ?? c.var.user!.email
  if (email === current.toLowerCase()) return toAccount(c, 'email_same', 'email')
  const res = await authClient(c).updateUser(c.var.accessToken!, { email })
  if (!res.ok)
    return toAccount(
      c,
      res.status >= 500
        ? 'unavailable'
        : res.code === 'validation_failed'
          ? 'invalid_email'
          : res.code,
      'email',
    )
  flash(c, {
    title: c.var.t('auth.email_change_sent_title'),
    description: c.var.t('auth.email_change_sent', { email }),
  })
  return c.redirect('/account#email', 303)
})

const MagicLink = v.object({ email: formEmail, ...captchaField })

/** "E-mail me a sign-in link": the service sends a link and a code to an existing account. */
authRoutes.post('/magic-link', ...authForm, async (c) => {
  const input = await readForm(c, MagicLink)
  if (!input) return toAuthPage(c, 'magic', { error: 'missing_email' })
  const email = input.email
  const token = input[TOKEN_FIELD]
  const res = await authClient(c).sendSignInEmail(email, token)
  // An unknown address (otp_disabled) hears the same as a known one: nobody learns who has
  // an account. Too many e-mails in a row is worth saying.
  if (!res.ok && res.code !== 'otp_disabled')
    return toAuthPage(c, 'magic', { error: challengeError(res.code, token), email })
  return toAuthPage(c, 'magic', { sent: true, email })
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
  const back = (error: string) => toAuthPage(c, 'magic', { sent: true, error, email })
  if (!parsed.success) return back('invalid_code')
  return spend(c, { type: 'email', email: parsed.output.email, token: parsed.output.code }, back)
})

const Confirm = v.object({
  token_hash: v.pipe(v.string(), v.minLength(20), v.maxLength(200)),
  // a sign-in link, the link that confirms a new account's address, or one of an address
  // change's two links
  type: v.picklist(['magiclink', 'signup', 'email_change']),
})

const CONFIRMED_TITLES = {
  magiclink: 'auth.signed_in_title',
  signup: 'auth.confirmed_title',
  email_change: 'auth.email_changed_title',
} as const

/** The e-mailed link's button (a POST, so mail scanners that open links do not spend it). */
authRoutes.post('/confirm', ...authForm, async (c) => {
  const input = await readForm(c, Confirm)
  if (!input) return toAuthPage(c, 'magic', { error: 'otp_expired' })
  if (input.type !== 'email_change')
    return spend(
      c,
      input,
      () => toAuthPage(c, 'magic', { error: 'otp_expired' }),
      CONFIRMED_TITLES[input.type],
    )
  const res = await authClient(c).verify(input)
  const signedIn = Boolean(c.var.user)
  // the first of the two links of a secure change: the other is still to be followed
  if (res.ok && !res.data?.access_token) {
    flash(c, {
      title: c.var.t('auth.email_change_half_title'),
      description: c.var.t('auth.email_change_half_text'),
    })
    return c.redirect(signedIn ? '/account#email' : '/', 303)
  }
  if (!res.ok || !res.data?.access_token) {
    const error = !res.ok && res.status < 500 ? res.code : 'unavailable'
    return signedIn ? toAccount(c, error, 'email') : toAuthPage(c, undefined, { error })
  }
  return completeSignIn(c, res.data, '/account', {
    title: c.var.t('auth.email_changed_title'),
    description: res.data.user.email,
  })
})

/** Spends a link or code at the service's /verify; its session is the visitor's. */
async function spend(
  c: Context<AppEnv>,
  verify: Record<string, string>,
  back: (error: string) => Response,
  title: (typeof CONFIRMED_TITLES)['magiclink' | 'signup'] = 'auth.signed_in_title',
) {
  const res = await authClient(c).verify(verify)
  if (!res.ok || !res.data?.access_token)
    return back(
      !res.ok && res.code === 'otp_expired' && 'token' in verify
        ? 'invalid_code'
        : res.ok
          ? 'unavailable'
          : res.code,
    )
  return completeSignIn(c, res.data, '/', {
    title: c.var.t(title),
    description: res.data.user.email,
  })
}
