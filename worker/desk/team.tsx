import { Hono, type Context } from 'hono'
import * as v from 'valibot'
import { LANGS, type Lang } from '../../client/lib/languages'
import { formFields } from '../api/forms'
import { emailSchema } from '../auth-service/gotrue'
import { audit } from '../db/desk'
import { isSuppressed } from '../db/outbox'
import {
  findInvitation,
  insertInvitation,
  listInvitations,
  openInvitationFor,
  removeMember,
  renewInvitation,
  revokeInvitation,
} from '../db/team'
import type { AppEnv } from '../env'
import { emailHash, randomHex, sha256Hex } from '../hash'
import { createTranslator } from '../i18n/translator'
import { insertedIds, mailRow, sendJobs, writerOf } from '../mail/enqueue'
import { limitBody, sameSiteOnly } from '../middleware/form-guard'
import { GRANTABLE, type GrantableRole, type Role } from '../roles'
import { changeRole, handOver, readTeam, roleNow, type RoleChange } from './members'
import { TEAM_DONE, TEAM_ERRORS, DeskTeamPage, type InviteForm, type TeamError } from './pages/team'
import { deskTitle, staffOf } from './staff'

/**
 * /desk/team (Owner and Admins, route-permissions.ts): the members as the auth service says
 * they are (desk/members.ts), the invitations, and the changes: a role, a removal, ownership
 * handed over. Each change is written to the history (desk_audit) once it is made.
 */
export const deskTeam = new Hono<AppEnv>()

const Invite = v.object({
  email: emailSchema,
  role: v.picklist(GRANTABLE),
  language: v.picklist(LANGS),
})

async function teamPage(
  c: Context<AppEnv>,
  options: { invite?: InviteForm; error?: TeamError; status?: 200 | 409 | 422 | 503 } = {},
) {
  const [members, invitations] = await Promise.all([readTeam(c), listInvitations(c.env.DB)])
  const done = TEAM_DONE.find((d) => d === c.req.query('done'))
  const error = options.error ?? TEAM_ERRORS.find((e) => e === c.req.query('error'))
  c.status(options.status ?? 200)
  return c.render(
    <DeskTeamPage
      members={members}
      invitations={invitations}
      me={staffOf(c).id}
      now={new Date().toISOString()}
      done={done}
      error={error}
      invite={options.invite}
    />,
    {
      title: deskTitle(c, c.var.t('desk.nav.team')),
      description: c.var.t('desk.description'),
      workspace: true,
    },
  )
}

deskTeam.get('/', (c) => teamPage(c))

const back = (c: Context<AppEnv>, outcome: { done: string } | { error: TeamError }) =>
  c.redirect(`/desk/team?${new URLSearchParams(outcome)}`, 303)

/** A new link: the token goes in the e-mail, only its hash in D1. */
const newToken = async () => {
  const token = randomHex(32)
  return { token, tokenHash: await sha256Hex(token) }
}

/** The invitation's e-mail, in the language chosen for it, as an outbox statement. */
const inviteMail = (
  c: Context<AppEnv>,
  to: string,
  data: { token: string; role: GrantableRole; language: Lang },
  onlyIfInserted = false,
) =>
  mailRow(
    { ...writerOf(c), lang: data.language, t: createTranslator(data.language) },
    'team_invite',
    to,
    { token: data.token, role: data.role, inviter: staffOf(c).email },
    { onlyIfInserted },
  )

deskTeam.post('/invitations', sameSiteOnly(), limitBody(2048), async (c) => {
  const fields = await formFields(c)
  const typed: InviteForm = {
    email: String(fields.email ?? '').slice(0, 254),
    role: String(fields.role ?? ''),
    language: String(fields.language ?? ''),
  }
  const input = v.safeParse(Invite, fields)
  if (!input.success) return teamPage(c, { invite: typed, error: 'invalid_invite', status: 422 })
  const { email, role, language } = input.output
  const db = c.env.DB
  const members = await readTeam(c)
  if (members.some((m) => m.email.toLowerCase() === email))
    return teamPage(c, { invite: typed, error: 'already_member', status: 409 })
  // the delivery would drop it (a bounce or a complaint before): say so now, send nothing
  if (await isSuppressed(db, await emailHash(email)))
    return teamPage(c, { invite: typed, error: 'suppressed', status: 422 })
  const open = await openInvitationFor(db, email)
  if (open && open.expires_at > new Date().toISOString())
    return teamPage(c, { invite: typed, error: 'already_invited', status: 409 })
  const { token, tokenHash } = await newToken()
  const staff = staffOf(c)
  // an expired invitation to the address is renewed: one open invitation per address
  const write = open
    ? renewInvitation(db, open.id, { tokenHash, role, language }, staff)
    : insertInvitation(db, { tokenHash, email, role, language }, staff)
  const [written, , mail] = await db.batch([
    write,
    // the history's row names the invitation; it and the e-mail only if the write was made
    db
      .prepare(
        `INSERT INTO desk_audit (actor_id, actor_email, action, target, detail)
         SELECT ?, ?, 'team.invite', 'invite/' || id, ? FROM desk_invitations WHERE token_hash = ?`,
      )
      .bind(staff.id, staff.email, JSON.stringify({ email, role, lang: language }), tokenHash),
    await inviteMail(c, email, { token, role, language }, true),
  ])
  // (another tab invited the address a moment before: its e-mail is the one that goes)
  if (!written.results.length)
    return teamPage(c, { invite: typed, error: 'already_invited', status: 409 })
  c.executionCtx.waitUntil(sendJobs(c.env, insertedIds([mail], [0])))
  return back(c, { done: 'invited' })
})

const InvitationId = v.pipe(v.string(), v.regex(/^\d{1,12}$/), v.transform(Number))

deskTeam.post('/invitations/:id{[0-9]+}/resend', sameSiteOnly(), limitBody(1024), async (c) => {
  const db = c.env.DB
  const id = v.safeParse(InvitationId, c.req.param('id'))
  const invitation = id.success ? await findInvitation(db, id.output) : null
  if (!invitation || invitation.accepted_at || invitation.revoked_at)
    return back(c, { error: 'invitation_closed' })
  const { token, tokenHash } = await newToken()
  const { role, email } = invitation
  const language = invitation.language as Lang
  // the history's row and the e-mail only if the invitation was still open to renew
  const [renewed, , mail] = await db.batch([
    renewInvitation(db, invitation.id, { tokenHash, role, language }, staffOf(c)),
    audit(db, staffOf(c), 'team.invite_resend', `invite/${invitation.id}`, { email, role }, true),
    await inviteMail(c, email, { token, role, language }, true),
  ])
  if (!renewed.results.length) return back(c, { error: 'invitation_closed' })
  c.executionCtx.waitUntil(sendJobs(c.env, insertedIds([mail], [0])))
  return back(c, { done: 'resent' })
})

deskTeam.post('/invitations/:id{[0-9]+}/revoke', sameSiteOnly(), limitBody(1024), async (c) => {
  const db = c.env.DB
  const id = v.safeParse(InvitationId, c.req.param('id'))
  const invitation = id.success ? await findInvitation(db, id.output) : null
  if (!invitation) return back(c, { error: 'invitation_closed' })
  const [revoked] = await db.batch([
    revokeInvitation(db, invitation.id),
    audit(
      db,
      staffOf(c),
      'team.invite_revoke',
      `invite/${invitation.id}`,
      { email: invitation.email, role: invitation.role },
      true,
    ),
  ])
  if (!revoked.results.length) return back(c, { error: 'invitation_closed' })
  return back(c, { done: 'revoked' })
})

/**
 * Whom the signed-in member may change here: another member (never themselves: an Admin
 * cannot lock the team out by a slip) who is not the Owner (whose role moves only by the
 * handover). Their role as the auth service has it now.
 */
async function changeable(
  c: Context<AppEnv>,
  userId: string,
): Promise<{ error: TeamError } | { role: Role; email: string }> {
  if (userId === staffOf(c).id) return { error: 'not_yourself' }
  const now = await roleNow(c, userId)
  if (!now) return { error: 'unavailable' }
  if (!now.role) return { error: 'not_member' }
  if (now.role === 'owner') return { error: 'owner_fixed' }
  return { role: now.role, email: now.email }
}

const MemberId = v.pipe(v.string(), v.uuid())
const RoleChange = v.object({ role: v.picklist(GRANTABLE) })

deskTeam.post('/members/:id/role', sameSiteOnly(), limitBody(1024), async (c) => {
  const id = v.safeParse(MemberId, c.req.param('id'))
  const input = v.safeParse(RoleChange, await formFields(c))
  if (!id.success || !input.success) return back(c, { error: 'invalid_change' })
  const target = await changeable(c, id.output)
  if ('error' in target) return back(c, { error: target.error })
  const to = input.output.role
  if (to === target.role) return back(c, { done: 'role' })
  const changed = await changeRole(c, id.output, target.role, to)
  if (changed !== 'done') return back(c, { error: changeError(changed) })
  await audit(c.env.DB, staffOf(c), 'team.role', `member/${id.output}`, {
    email: target.email,
    from: target.role,
    to,
  }).run()
  return back(c, { done: 'role' })
})

deskTeam.post('/members/:id/remove', sameSiteOnly(), limitBody(1024), async (c) => {
  const id = v.safeParse(MemberId, c.req.param('id'))
  if (!id.success) return back(c, { error: 'invalid_change' })
  const target = await changeable(c, id.output)
  if ('error' in target) return back(c, { error: target.error })
  // the account stays (a customer's, or theirs to delete); its role goes, and with it the desk
  // at its next request (guard.ts reads the role live), the work it did kept
  const changed = await changeRole(c, id.output, target.role, null)
  if (changed !== 'done') return back(c, { error: changeError(changed) })
  const db = c.env.DB
  await db.batch([
    removeMember(db, id.output),
    audit(db, staffOf(c), 'team.remove', `member/${id.output}`, {
      email: target.email,
      role: target.role,
    }),
  ])
  return back(c, { done: 'removed' })
})

/** What the page says of a change not made (or, with the service silent, not known). */
const changeError = (result: Exclude<RoleChange, 'done'>): TeamError =>
  result === 'moved'
    ? 'changed_meanwhile'
    : result === 'unknown'
      ? 'handover_unknown'
      : 'unavailable'

const Handover = v.object({ user_id: MemberId })

/** The Owner hands ownership to an Admin and becomes one (members.ts handOver). */
deskTeam.post('/ownership', sameSiteOnly(), limitBody(1024), async (c) => {
  const input = v.safeParse(Handover, await formFields(c))
  if (!input.success) return back(c, { error: 'invalid_change' })
  const to = input.output.user_id
  const target = await changeable(c, to)
  if ('error' in target) return back(c, { error: target.error })
  if (target.role !== 'admin') return back(c, { error: 'owner_needs_admin' })
  const me = staffOf(c)
  const handed = await handOver(c, me.id, to)
  if (handed !== 'done') return back(c, { error: changeError(handed) })
  await audit(c.env.DB, me, 'team.ownership', `member/${to}`, { email: target.email }).run()
  return back(c, { done: 'ownership' })
})
