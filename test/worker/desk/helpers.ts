import { env, SELF } from 'cloudflare:test'
import { expect } from 'vitest'
import { client, codeFor, SITE, unique } from '../auth/helpers'
import { DUMMY_TOKEN } from '../challenge'
import type { Role } from '../../../worker/roles'
import { postForm } from '../privacy/helpers'

/** What the desk tests share: people with and without the staff role and a second factor. */

const cookieOf = (session: { access_token: string; refresh_token: string }) =>
  `sb-access-token=${session.access_token}; sb-refresh-token=${session.refresh_token}`

/**
 * A signed-in person: staff (an Admin, who may do everything but hand ownership over, or the
 * role named) or not, with a second factor (aal2) or not; their cookies.
 */
export async function person(opts: { staff: boolean | Role; secondFactor: boolean }) {
  const supabase = client()
  const email = unique('desk')
  const signedUp = await supabase.auth.signUp({
    email,
    password: 'correct horse 1',
    options: { captchaToken: DUMMY_TOKEN },
  })
  expect(signedUp.error).toBeNull()
  // as `npm run staff -- add` makes one: the role, and the team page's index of members
  if (opts.staff)
    await env.DB.batch([
      env.DB.prepare(
        `UPDATE auth_users SET app_metadata = json_object('role', ?) WHERE email = ?`,
      ).bind(opts.staff === true ? 'admin' : opts.staff, email),
      env.DB.prepare(
        'INSERT INTO desk_members (user_id, email) SELECT id, email FROM auth_users WHERE email = ?',
      ).bind(email),
    ])
  // a fresh sign-in, so the token carries the role
  let session = (await supabase.auth.signInWithPassword({ email, password: 'correct horse 1' }))
    .data.session!
  if (opts.secondFactor) {
    const enrolled = await supabase.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone' })
    const { id, totp } = enrolled.data as { id: string; totp: { secret: string } }
    const verified = await supabase.auth.mfa.challengeAndVerify({
      factorId: id,
      code: codeFor(totp.secret),
    })
    expect(verified.error).toBeNull()
    session = (await supabase.auth.getSession()).data.session!
  }
  return { email, cookie: cookieOf(session) }
}

export const get = (path: string, cookie?: string) =>
  SELF.fetch(SITE + path, { headers: cookie ? { Cookie: cookie } : {}, redirect: 'manual' })

/** A desk form posted from the desk's own page. */
export const post = (path: string, fields: Record<string, string>, cookie?: string) =>
  postForm(path, fields, cookie ? { Cookie: cookie } : {})
