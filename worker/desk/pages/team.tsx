import { Field, SelectField } from '../../../client/components/field'
import { LANGS } from '../../../client/lib/languages'
import type { InvitationRow } from '../../db/team'
import { formatDateTime, languageName } from '../../i18n/format'
import { usePage } from '../../render/context'
import { isolate } from '../../components/auth-form'
import { can, GRANTABLE } from '../../roles'
import type { TeamMember } from '../members'
import { DeskHeader, DeskNotice } from './leads'

/** What the page says was done, and what it refused (desk/team.tsx). */
export const TEAM_DONE = ['invited', 'resent', 'revoked', 'role', 'removed', 'ownership'] as const
export const TEAM_ERRORS = [
  'invalid_invite',
  'already_member',
  'already_invited',
  'suppressed',
  'invitation_closed',
  'invalid_change',
  'not_yourself',
  'not_member',
  'owner_fixed',
  'owner_needs_admin',
  'changed_meanwhile',
  'handover_unknown',
  'unavailable',
] as const
export type TeamError = (typeof TEAM_ERRORS)[number]

/** The invitation form as typed, kept when it is refused. */
export interface InviteForm {
  email: string
  role: string
  language: string
}

const small = 'btn-ghost px-3 py-1.5 text-sm'

/** The team: its members, each with what the signed-in member may change; the invitations. */
export function DeskTeamPage({
  members,
  invitations,
  me,
  now,
  done,
  error,
  invite,
}: {
  members: TeamMember[]
  invitations: InvitationRow[]
  me: string
  now: string
  done?: (typeof TEAM_DONE)[number]
  error?: TeamError
  invite?: InviteForm
}) {
  const { t, lang } = usePage()
  const roleOptions = GRANTABLE.map((r) => ({ value: r, label: t(`desk_team.roles.${r}`) }))
  return (
    <>
      <DeskHeader title={t('desk.nav.team')} section="/desk/team" />
      <div className="container space-y-10 pb-16">
        {done && <DeskNotice>{t(`desk_team.done.${done}`)}</DeskNotice>}
        {error && !invite && <DeskNotice ok={false}>{t(`desk_team.errors.${error}`)}</DeskNotice>}
        <section aria-labelledby="members-title" className="space-y-4">
          <h2 id="members-title" className="m-0 text-xl font-bold text-ink-900">
            {t('desk_team.members_title')}
          </h2>
          <ul className="m-0 grid list-none gap-4 p-0 md:grid-cols-2 xl:grid-cols-3">
            {members.map((m) => (
              <MemberCard key={m.id} member={m} me={m.id === me} roleOptions={roleOptions} />
            ))}
          </ul>
        </section>
        <section aria-labelledby="invitations-title" className="space-y-4">
          <h2 id="invitations-title" className="m-0 text-xl font-bold text-ink-900">
            {t('desk_team.invitations_title')}
          </h2>
          <form
            method="post"
            action="/desk/team/invitations"
            className="card grid items-end gap-4 sm:grid-cols-2 lg:grid-cols-4"
            aria-labelledby="invite-title"
          >
            <h3
              id="invite-title"
              className="m-0 text-base font-bold text-ink-900 sm:col-span-2 lg:col-span-4"
            >
              {t('desk_team.invite_title')}
            </h3>
            {error && invite && (
              <DeskNotice ok={false} className="sm:col-span-2 lg:col-span-4">
                {t(`desk_team.errors.${error}`)}
              </DeskNotice>
            )}
            <Field
              id="invite-email"
              name="email"
              type="email"
              autoComplete="off"
              required
              maxLength={254}
              dir="ltr"
              label={t('desk_team.email')}
              defaultValue={invite?.email}
            />
            <SelectField
              id="invite-role"
              name="role"
              required
              label={t('desk_team.role')}
              placeholder={t('desk_team.choose')}
              defaultValue={invite?.role ?? ''}
              options={roleOptions}
            />
            <SelectField
              id="invite-language"
              name="language"
              required
              label={t('desk_team.language')}
              placeholder={t('desk_team.choose')}
              defaultValue={invite?.language ?? lang}
              options={LANGS.map((l) => ({ value: l, label: languageName(lang, l) }))}
            />
            <button type="submit" className="btn-primary">
              {t('desk_team.invite_button')}
            </button>
            <p className="m-0 text-sm text-ink-600 sm:col-span-2 lg:col-span-4">
              {t('desk_team.invite_hint')}
            </p>
          </form>
          {invitations.length === 0 ? (
            <p className="m-0 text-ink-600">{t('desk_team.no_invitations')}</p>
          ) : (
            <ul className="m-0 grid list-none gap-4 p-0 md:grid-cols-2 xl:grid-cols-3">
              {invitations.map((i) => (
                <InvitationCard key={i.id} invitation={i} expired={i.expires_at <= now} />
              ))}
            </ul>
          )}
        </section>
      </div>
    </>
  )
}

function MemberCard({
  member: m,
  me,
  roleOptions,
}: {
  member: TeamMember
  me: boolean
  roleOptions: { value: string; label: string }[]
}) {
  const { t, lang, config, deskRole } = usePage()
  const when = (iso: string) => formatDateTime(lang, iso, config.timeZone)
  // the Owner's role moves only by the handover; nobody changes their own here
  const changeable = !me && m.role !== undefined && m.role !== 'owner'
  const id = m.id.slice(0, 8)
  return (
    <li className="card space-y-3">
      <p className="m-0 break-all font-semibold text-ink-900">
        <bdi dir="ltr">{m.email}</bdi>
        {me && (
          <span className="ms-2 text-sm font-normal text-ink-600">({t('desk_team.you')})</span>
        )}
      </p>
      <dl className="m-0 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-ink-600">{t('desk_team.role')}</dt>
        <dd className="m-0 font-semibold text-ink-900">
          {m.role ? t(`desk_team.roles.${m.role}`) : t('desk_team.role_unknown')}
        </dd>
        <dt className="text-ink-600">{t('desk_team.since')}</dt>
        <dd className="m-0">{when(m.joinedAt)}</dd>
        <dt className="text-ink-600">{t('desk_team.last_seen')}</dt>
        <dd className="m-0">{m.lastSeenAt ? when(m.lastSeenAt) : t('desk_team.never_seen')}</dd>
        <dt className="text-ink-600">{t('desk_team.second_factor')}</dt>
        <dd className="m-0">
          {m.secondFactor === undefined
            ? t('desk_team.role_unknown')
            : t(m.secondFactor ? 'desk_team.factor_set' : 'desk_team.factor_missing')}
        </dd>
      </dl>
      {changeable && (
        <div className="space-y-3 border-t border-slate-200 pt-3">
          <form
            method="post"
            action={`/desk/team/members/${m.id}/role`}
            className="flex flex-wrap items-end gap-2"
          >
            <div className="min-w-40 flex-1">
              <SelectField
                id={`role-${id}`}
                name="role"
                required
                label={t('desk_team.new_role')}
                placeholder={t('desk_team.choose')}
                defaultValue={m.role}
                options={roleOptions}
              />
            </div>
            <button type="submit" className={small}>
              {t('desk_team.change_role')}
            </button>
          </form>
          <details>
            <summary className="cursor-pointer text-sm font-semibold text-red-700">
              {t('desk_team.remove')}
            </summary>
            <form
              method="post"
              action={`/desk/team/members/${m.id}/remove`}
              className="mt-2 space-y-2"
            >
              <p className="m-0 text-sm text-ink-700">{t('desk_team.remove_text')}</p>
              <button type="submit" className="btn-danger px-3 py-1.5 text-sm">
                {t('desk_team.remove_button', { email: isolate(m.email) })}
              </button>
            </form>
          </details>
          {m.role === 'admin' && can(deskRole, 'ownership.transfer') && (
            <details>
              <summary className="cursor-pointer text-sm font-semibold text-ink-700">
                {t('desk_team.handover')}
              </summary>
              <form method="post" action="/desk/team/ownership" className="mt-2 space-y-2">
                <input type="hidden" name="user_id" value={m.id} />
                <p className="m-0 text-sm text-ink-700">{t('desk_team.handover_text')}</p>
                <button type="submit" className="btn-primary px-3 py-1.5 text-sm">
                  {t('desk_team.handover_button', { email: isolate(m.email) })}
                </button>
              </form>
            </details>
          )}
        </div>
      )}
    </li>
  )
}

function InvitationCard({
  invitation: i,
  expired,
}: {
  invitation: InvitationRow
  expired: boolean
}) {
  const { t, lang, config } = usePage()
  const when = (iso: string) => formatDateTime(lang, iso, config.timeZone)
  return (
    <li className="card space-y-3">
      <p className="m-0 break-all font-semibold text-ink-900">
        <bdi dir="ltr">{i.email}</bdi>
      </p>
      <p className="m-0 text-sm text-ink-700">
        {t(`desk_team.roles.${i.role}`)} · {languageName(lang, i.language)}
      </p>
      <p className={`m-0 text-sm ${expired ? 'font-semibold text-amber-900' : 'text-ink-700'}`}>
        {expired
          ? t('desk_team.expired', { date: when(i.expires_at) })
          : t('desk_team.expires', { date: when(i.expires_at) })}
        <span className="block font-normal text-ink-600">
          {t('desk_team.invited_by', { email: isolate(i.invited_by_email), date: when(i.sent_at) })}
        </span>
      </p>
      <div className="flex flex-wrap gap-2">
        <form method="post" action={`/desk/team/invitations/${i.id}/resend`}>
          <button
            type="submit"
            className={small}
            aria-label={`${t('desk_team.resend')}: ${i.email}`}
          >
            {t('desk_team.resend')}
          </button>
        </form>
        <form method="post" action={`/desk/team/invitations/${i.id}/revoke`}>
          <button
            type="submit"
            className={small}
            aria-label={`${t('desk_team.revoke')}: ${i.email}`}
          >
            {t('desk_team.revoke')}
          </button>
        </form>
      </div>
    </li>
  )
}
