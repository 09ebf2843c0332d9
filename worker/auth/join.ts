import { Hono, type Context } from 'hono'
import { getCookie } from 'hono/cookie'
import * as v from 'valibot'
import { weakPassword } from '../../client/schemas/auth'
import { formFields } from '../api/forms'
import type { AuthUser, TokenSet } from '../auth-types'
import { audit } from '../db/desk'
import {
  addMember,
  invitationByToken,
  spendInvitation,
  unspendInvitation,
  type InvitationRow,
} from '../db/team'
import type { AppEnv } from '../env'
import { sha256Hex } from '../hash'
import { limitBody, sameSiteOnly } from '../middleware/form-guard'
import { renderJoinPage, type JoinState } from '../pages/join'
import { flash } from '../render/flash'
import { staffRole } from '../roles'
import { authClient } from './client'
import { verifiedFactor } from './second-step'
import { completeSignIn } from './mfa'
import { REFRESH_COOKIE, rememberSession } from './session'

/**
 * An invitation's link, /join?token= (desk/team.tsx sends it): its page (pages/join.tsx) and
 * its form. The token is the proof of the address: with it an account for that address only
 * signs in, or is made with its address confirmed (GoTrue's admin create), and takes the
 * invitation's role; the link then works no more. The desk opens once an authenticator app is
 * set (guard.ts asks for aal2), which is where the account goes next.
 */
export const joinRoutes = new Hono<AppEnv>()

const Token = v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/))

/** What the link's page shows for this token and this browser's session. */
async function joinState(c: Context<AppEnv>, token: string): Promise<JoinState> {
  if (!v.is(Token, token)) return { kind: 'invalid' }
  const invitation = await invitationByToken(c.env.DB, await sha256Hex(token))
  if (!invitation) return { kind: 'invalid' }
  if (invitation.accepted_at) return { kind: 'used', invitation }
  if (invitation.revoked_at) return { kind: 'revoked', invitation }
  if (invitation.expires_at <= new Date().toISOString()) return { kind: 'expired', invitation }
  const user = c.var.user
  if (user && user.email.toLowerCase() !== invitation.email)
    return { kind: 'other_account', invitation, current: user.email }
  if (user && staffRole(c.var.claims?.app_metadata?.role)) return { kind: 'member', invitation }
  return { kind: 'open', invitation, signedIn: Boolean(user) }
}

export async function serveJoinPage(c: Context<AppEnv>) {
  const token = c.req.query('token') ?? ''
  return renderJoinPage(c, await joinState(c, token), token)
}

const JoinForm = v.object({
  token: v.pipe(v.string(), v.maxLength(100)),
  intent: v.picklist(['sign-in', 'sign-up', 'accept']),
  password: v.optional(v.pipe(v.string(), v.maxLength(200))),
})

/**
 * Spends the invitation for this account and gives it the role: once (a second tab, a double
 * press, find it spent). A role the service would not take gives the invitation back.
 */
async function accept(
  c: Context<AppEnv>,
  tokenHash: string,
  user: Pick<AuthUser, 'id' | 'email' | 'app_metadata'>,
) {
  const db = c.env.DB
  // a member already (their role as the service has it now, not as an older token says): an
  // invitation never lowers or replaces a role; the team page changes roles
  if (staffRole(user.app_metadata?.role)) return null
  const spent = await spendInvitation(db, tokenHash, user.id)
  if (!spent) return null
  const set = await authClient(c).adminSetAppMetadata(user.id, { role: spent.role })
  if (!set.ok) {
    await unspendInvitation(db, spent.id)
    return null
  }
  await joined(c, spent, user)
  return spent
}

/** The new member in the team's index, and in the history. */
const joined = (
  c: Context<AppEnv>,
  invitation: InvitationRow,
  user: Pick<AuthUser, 'id' | 'email'>,
) =>
  c.env.DB.batch([
    addMember(c.env.DB, user.id, user.email),
    audit(c.env.DB, user, 'team.invite_accept', `member/${user.id}`, {
      email: user.email,
      role: invitation.role,
      invite: invitation.id,
    }),
  ])

/**
 * Into the account, now a member: the desk when a second factor is set, else the way to one.
 * The account's other sessions end first: a session opened before the invitation (by whoever
 * held the password or an older device) never inherits the role.
 */
async function welcome(c: Context<AppEnv>, tokens: TokenSet, role: string) {
  await authClient(c).signOut(tokens.access_token, 'others')
  const t = c.var.t
  const notice = {
    title: t('desk_team.join.welcome_title'),
    description: t('desk_team.join.welcome_text', { role: t(`desk_team.roles.${role}` as never) }),
  }
  if (verifiedFactor(tokens.user)) return completeSignIn(c, tokens, '/desk', notice)
  rememberSession(c, tokens)
  flash(c, notice)
  return c.redirect('/account#mfa', 303)
}

joinRoutes.post('/join', sameSiteOnly(), limitBody(2048), async (c) => {
  const fields = await formFields(c)
  const token = typeof fields.token === 'string' ? fields.token.slice(0, 100) : ''
  const state = await joinState(c, token)
  if (state.kind !== 'open') return renderJoinPage(c, state, token)
  const again = (error: string) => renderJoinPage(c, { ...state, error }, token)
  const parsed = v.safeParse(JoinForm, fields)
  if (!parsed.success) return again('missing')
  const input = parsed.output
  const { invitation } = state
  const tokenHash = await sha256Hex(token)
  const auth = authClient(c)

  if (input.intent === 'accept') {
    // the signed-in account of the invited address (joinState checked the token's address)
    const access = c.var.accessToken
    const live = access ? await auth.user(access) : null
    if (!live?.ok || live.data.email.toLowerCase() !== invitation.email) return again('unavailable')
    if (staffRole(live.data.app_metadata?.role))
      return renderJoinPage(c, { kind: 'member', invitation }, token)
    // (spent meanwhile, by another tab: the page says so)
    if (!(await accept(c, tokenHash, live.data))) return serveJoinPage(c)
    // a token with the role in it: the desk reads the role from the session's token; joined
    // all the same if the refresh fails, so a sign-in makes one
    const refreshed = await auth.refresh(getCookie(c, REFRESH_COOKIE) ?? '')
    if (!refreshed.ok) return c.redirect('/auth?next=/desk', 303)
    rememberSession(c, refreshed.data)
    return welcome(c, { ...refreshed.data, user: live.data }, invitation.role)
  }

  if (!input.password) return again('missing')
  if (input.intent === 'sign-up') {
    // the service's own rule for a new password (GoTrue's admin create, which makes the
    // account, checks none)
    if (weakPassword(input.password)) return again('weak_password')
    // the link proved the address: the account is made confirmed, with its role (GoTrue's
    // admin create), once the invitation is spent, so two presses cannot make two
    const spent = await spendInvitation(c.env.DB, tokenHash, 'pending')
    if (!spent) return serveJoinPage(c)
    const created = await auth.adminCreateUser(invitation.email, input.password, {
      role: invitation.role,
    })
    if (!created.ok) {
      await unspendInvitation(c.env.DB, spent.id)
      // (an older GoTrue answers an address taken with a 422 and no code of its own)
      const exists =
        created.code === 'email_exists' ||
        created.code === 'user_already_exists' ||
        created.status === 422
      return again(exists ? 'account_exists' : created.code)
    }
    await c.env.DB.prepare('UPDATE desk_invitations SET accepted_by = ? WHERE id = ?')
      .bind(created.data.id, spent.id)
      .run()
    await joined(c, spent, created.data)
    const session = await auth.signIn(invitation.email, input.password)
    if (!session.ok) return c.redirect('/auth?next=/account', 303)
    return welcome(c, session.data, invitation.role)
  }

  const session = await auth.signIn(invitation.email, input.password)
  if (!session.ok)
    return again(session.code === 'invalid_credentials' ? 'invalid_credentials' : session.code)
  if (staffRole(session.data.user.app_metadata?.role)) {
    // already a member: nothing to accept, the link stays unspent
    return completeSignIn(c, session.data, '/desk', { title: c.var.t('auth.signed_in_title') })
  }
  // (spent meanwhile, by another tab: the page says so)
  if (!(await accept(c, tokenHash, session.data.user))) return serveJoinPage(c)
  // the tokens were made before the role: the code step (or the app's set-up) makes new ones
  return welcome(c, session.data, invitation.role)
})
