import type { ReactNode } from 'react'
import { Field, inputClass, labelClass } from '../../../client/components/field'
import { isLang } from '../../../client/lib/languages'
import { formatDateTime, languageName } from '../../i18n/format'
import { isMessageKey, type Translator } from '../../i18n/translator'
import { usePage } from '../../render/context'
import { isRole } from '../../roles'
import { ACTION_GROUPS, GROUPS } from '../history-actions'
import type { HistoryError, HistoryLine } from '../history'
import { DeskCardCell, DeskCardTable, DeskHeader } from './leads'

/** The history's filter as the form shows it (the query string's fields). */
export interface HistoryQuery {
  who?: string
  action?: string
  from?: string
  to?: string
}

/** The query string of the filter (the CSV's link, the older page's). */
const queryOf = (query: HistoryQuery, extra: Record<string, string> = {}) =>
  new URLSearchParams({
    ...(Object.fromEntries(Object.entries(query).filter(([, v]) => v)) as Record<string, string>),
    ...extra,
  }).toString()

/** Who did it: a member's address, or the site itself (a cron, an expiry; scheduled publishing). */
const actorName = (actor: { id: string; email: string }) =>
  actor.id && actor.email && actor.id !== 'schedule' ? actor.email : null
const siteName = (t: Translator, id: string) =>
  id === 'schedule' ? t('desk_history.site_schedule') : t('desk_history.site')

/** An action's name in the page's language; one the page has no name for, as the log has it. */
const actionLabel = (t: Translator, action: string) => {
  const key = `desk_history.actions.${action}`
  return isMessageKey(key) ? t(key) : action
}

const roleName = (t: Translator, role: unknown) =>
  isRole(role) ? t(`desk_history.roles.${role}`) : String(role)

/** An address, isolated from the text around it, that a narrow column breaks after its @ only. */
function Email({ address }: { address: string }) {
  const at = address.lastIndexOf('@')
  return (
    <bdi dir="ltr">
      {at > 0 ? (
        <>
          {address.slice(0, at + 1)}
          <wbr />
          {address.slice(at + 1)}
        </>
      ) : (
        address
      )}
    </bdi>
  )
}

/** "from → to" in the language's words, each side isolated (a date's digits in Arabic). */
function Change({ t, from, to }: { t: Translator; from: string; to: string }) {
  const [before, between, after] = t('desk_history.detail.change', {
    from: '\u0000',
    to: '\u0001',
  }).split(/[\u0000\u0001]/)
  return (
    <>
      {before}
      <bdi>{from}</bdi>
      {between}
      <bdi>{to}</bdi>
      {after}
    </>
  )
}

const isInstant = (s: unknown): s is string =>
  typeof s === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(s)

/**
 * A short, readable line of what the row's detail says that its target does not: an address,
 * a role changed from one to another, a language, a time, a count. Text only: React escapes it.
 */
function detailOf(
  t: Translator,
  lang: ReturnType<typeof usePage>['lang'],
  zone: string,
  raw: string,
) {
  let d: Record<string, unknown>
  try {
    const parsed: unknown = JSON.parse(raw)
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null
    d = parsed as Record<string, unknown>
  } catch {
    return null
  }
  const when = (iso: string) => formatDateTime(lang, iso, zone)
  const parts: ReactNode[] = []
  if (typeof d.email === 'string') parts.push(<Email key="email" address={d.email} />)
  if (typeof d.role === 'string') parts.push(roleName(t, d.role))
  // a webhook endpoint's address (integration.*), and whether it was turned on or off
  if (typeof d.url === 'string')
    parts.push(
      <bdi key="url" dir="ltr" className="break-all">
        {d.url}
      </bdi>,
    )
  if (typeof d.enabled === 'boolean')
    parts.push(t(d.enabled ? 'desk_integrations.state.on' : 'desk_integrations.state.off'))
  if (typeof d.from === 'string' && typeof d.to === 'string')
    parts.push(
      isInstant(d.from) ? (
        <Change key="change" t={t} from={when(d.from)} to={when(d.to)} />
      ) : (
        <Change key="change" t={t} from={roleName(t, d.from)} to={roleName(t, d.to)} />
      ),
    )
  else if (isInstant(d.to)) parts.push(when(d.to))
  if (isInstant(d.slot)) parts.push(when(d.slot))
  if (isInstant(d.at)) parts.push(when(d.at))
  if (isInstant(d.since)) parts.push(when(d.since))
  if (typeof d.lang === 'string' && isLang(d.lang)) parts.push(languageName(lang, d.lang))
  if (Array.isArray(d.languages) && d.languages.length)
    parts.push(d.languages.map((l) => String(l).toUpperCase()).join(', '))
  // an experiment's winner (experiment.winner)
  if (d.winner === 'A' || d.winner === 'B')
    parts.push(t('desk_experiments.list.winner', { variant: d.winner }))
  if (typeof d.version === 'number') parts.push(t('desk_history.detail.version', { n: d.version }))
  if (typeof d.handled === 'boolean')
    parts.push(t(d.handled ? 'desk.statuses.handled' : 'desk.statuses.open'))
  if (d.note === true) parts.push(t('desk_history.detail.note'))
  // a review's note to the writer, its start
  else if (typeof d.note === 'string' && d.note)
    parts.push(`“${d.note.length > 120 ? `${d.note.slice(0, 120)}…` : d.note}”`)
  if (typeof d.rows === 'number') parts.push(t.plural('desk_history.detail.rows', d.rows))
  if (typeof d.kind === 'string') parts.push(d.kind)
  // the action was asked for, and changed nothing (the booking gone, the slot taken, an address
  // that takes no mail)
  if (d.outcome !== undefined || d.suppressed === true)
    parts.push(t('desk_history.detail.not_done'))
  if (!parts.length) return null
  return parts.flatMap((p, i) => (i ? [' · ', p] : [p]))
}

function Filters({
  query,
  errors,
  actors,
}: {
  query: HistoryQuery
  errors: HistoryError[]
  actors: { id: string; email: string }[]
}) {
  const { t } = usePage()
  const people = [
    { value: 'site', label: t('desk_history.site') },
    ...actors
      .filter((a) => a.id)
      // visitors who moved or cancelled their own booking: one entry for all of them, not the
      // last one's address
      .map((a) => ({
        value: a.id,
        label:
          a.id === 'visitor' ? t('desk_history.visitors') : (actorName(a) ?? siteName(t, a.id)),
      }))
      .sort((a, b) => a.label.localeCompare(b.label)),
  ]
  // a person or an action asked for by address that the lists lack, kept as chosen
  if (query.who && !people.some((p) => p.value === query.who))
    people.push({ value: query.who, label: query.who })
  const actions = Object.values(ACTION_GROUPS).flat() as string[]
  const dateError = errors.includes('date') || errors.includes('range')
  return (
    <form
      method="get"
      action="/desk/history"
      className="card grid gap-4 sm:grid-cols-2 lg:grid-cols-4"
      aria-describedby={errors.length ? 'history-errors' : undefined}
    >
      <div>
        <label htmlFor="h-who" className={labelClass}>
          {t('desk_history.person')}
        </label>
        <select
          id="h-who"
          name="who"
          defaultValue={query.who ?? ''}
          className={inputClass}
          aria-invalid={errors.includes('person') || undefined}
        >
          <option value="">{t('desk_history.everyone')}</option>
          {people.map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="h-action" className={labelClass}>
          {t('desk_history.action')}
        </label>
        <select
          id="h-action"
          name="action"
          defaultValue={query.action ?? ''}
          className={inputClass}
          aria-invalid={errors.includes('action') || undefined}
        >
          <option value="">{t('desk_history.every_action')}</option>
          {GROUPS.map((group) => (
            <optgroup key={group} label={t(`desk_history.groups.${group}`)}>
              <option value={group}>
                {t('desk_history.group_all', { group: t(`desk_history.groups.${group}`) })}
              </option>
              {ACTION_GROUPS[group].length > 1 &&
                ACTION_GROUPS[group].map((action) => (
                  <option key={action} value={action}>
                    {actionLabel(t, action)}
                  </option>
                ))}
            </optgroup>
          ))}
          {query.action && !actions.includes(query.action) && !(query.action in ACTION_GROUPS) && (
            <option value={query.action}>{query.action}</option>
          )}
        </select>
      </div>
      <Field
        id="h-from"
        name="from"
        type="date"
        label={t('desk.from')}
        defaultValue={query.from}
        aria-invalid={dateError || undefined}
      />
      <Field
        id="h-to"
        name="to"
        type="date"
        label={t('desk.to')}
        defaultValue={query.to}
        aria-invalid={dateError || undefined}
      />
      <div className="flex items-end gap-3 sm:col-span-2 lg:col-span-4">
        <button type="submit" className="btn-primary">
          {t('desk.apply')}
        </button>
        <a href="/desk/history" className="btn-ghost">
          {t('desk.clear')}
        </a>
      </div>
    </form>
  )
}

const COLUMNS = ['when', 'who', 'what', 'target', 'detail'] as const

/**
 * The rows. A table on a wide screen; on a phone each row is a card, its cells one under the
 * other, each after its column's name (the table's head is then for screen readers only).
 */
function HistoryTable({ lines }: { lines: HistoryLine[] }) {
  const { t, lang, config } = usePage()
  const names = Object.fromEntries(COLUMNS.map((c) => [c, t(`desk_history.columns.${c}`)]))
  const cell = (column: (typeof COLUMNS)[number], children: ReactNode, className = '') => (
    <DeskCardCell name={names[column]} className={className}>
      {children}
    </DeskCardCell>
  )
  return (
    <DeskCardTable
      caption={t('desk_history.title')}
      columns={COLUMNS.map((c) => ({ name: names[c] }))}
      bodyClassName="[&_a]:(font-semibold text-brand-700)"
    >
      {lines.map((l) => {
        const who = actorName({ id: l.actor_id, email: l.actor_email })
        return (
          <tr key={l.id} data-target={l.target ?? ''}>
            {cell(
              'when',
              <time dateTime={l.created_at}>
                {formatDateTime(lang, l.created_at, config.timeZone)}
              </time>,
              'md:whitespace-nowrap',
            )}
            {cell(
              'who',
              who ? (
                <Email address={who} />
              ) : (
                <span className="italic text-ink-600">{siteName(t, l.actor_id)}</span>
              ),
            )}
            {cell('what', actionLabel(t, l.action), 'font-semibold text-ink-900')}
            {cell(
              'target',
              l.target ? (
                l.href ? (
                  <a href={l.href}>
                    <bdi dir="ltr">{l.target}</bdi>
                  </a>
                ) : (
                  <bdi dir="ltr">{l.target}</bdi>
                )
              ) : null,
            )}
            {cell('detail', detailOf(t, lang, config.timeZone, l.detail), 'text-ink-700')}
          </tr>
        )
      })}
    </DeskCardTable>
  )
}

/** /desk/history: the audit log, newest first, filtered, a page at a time (Owner and Admin). */
export function DeskHistoryPage({
  query,
  errors,
  actors,
  lines,
  next,
}: {
  query: HistoryQuery
  errors: HistoryError[]
  actors: { id: string; email: string }[]
  lines: HistoryLine[]
  next: string | null
}) {
  const { t } = usePage()
  return (
    <>
      <DeskHeader title={t('desk_history.title')} section="/desk/history" />
      <div className="container space-y-6 pb-16">
        <p className="m-0 max-w-3xl text-ink-700">{t('desk_history.intro')}</p>
        <Filters query={query} errors={errors} actors={actors} />
        {errors.length > 0 ? (
          <div
            id="history-errors"
            role="alert"
            className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900"
          >
            {errors.map((e) => (
              <p key={e} className="m-0">
                {t(`desk_history.errors.${e}`)}
              </p>
            ))}
          </div>
        ) : (
          <>
            <div className="flex flex-wrap items-center justify-between gap-3">
              <p className="m-0 text-sm text-ink-600" role="status">
                {lines.length
                  ? t.plural('desk_history.showing', lines.length)
                  : t('desk_history.none')}
              </p>
              <a href={`/desk/history.csv?${queryOf(query)}`} className="btn-ghost py-2 text-sm">
                {t('desk.export')}
              </a>
            </div>
            {lines.length > 0 && (
              <div className="rounded-2xl border border-slate-200 md:overflow-x-auto">
                <HistoryTable lines={lines} />
              </div>
            )}
            {next && (
              <a href={`/desk/history?${queryOf(query, { after: next })}`} className="btn-ghost">
                {t('desk_history.older')}
              </a>
            )}
          </>
        )}
      </div>
    </>
  )
}
