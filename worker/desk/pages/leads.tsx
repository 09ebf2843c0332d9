import { Field, SelectField } from '../../../client/components/field'
import { LANGS } from '../../../client/lib/languages'
import { SERVICES } from '../../data/services'
import type { LeadFilter, LeadKind, LeadRow } from '../../db/desk'
import { LEAD_KINDS } from '../../db/desk'
import type { personalRows } from '../../db/personal-data'
import { filterQuery, STATUSES } from '../filter'
import { sectionsFor, type DeskSection } from '../sections'
import { formatDateTime, languageName } from '../../i18n/format'
import { usePage } from '../../render/context'

/** The agency's desk: the leads inbox and one person's history (staff only, desk/guard.ts). */

const when = formatDateTime

/** The outcome of a staff action, announced: done (green) or refused (amber). */
export function DeskNotice({
  ok = true,
  className = '',
  children,
}: {
  ok?: boolean
  className?: string
  children: React.ReactNode
}) {
  return (
    <p
      role="status"
      className={`m-0 rounded-lg p-3 text-sm ${ok ? 'bg-green-50 text-green-800' : 'bg-amber-50 text-amber-900'} ${className}`}
    >
      {children}
    </p>
  )
}

/**
 * A desk table: it scrolls sideways on a phone, names itself to screen readers (`caption`)
 * and heads its columns; the rows are its children.
 */
export function DeskTable({
  caption,
  columns,
  children,
}: {
  caption?: string
  columns: string[]
  children: React.ReactNode
}) {
  return (
    <div className="overflow-x-auto rounded-2xl border border-slate-200">
      <table className="w-full border-collapse text-sm">
        {caption && <caption className="sr-only">{caption}</caption>}
        <thead className="bg-slate-50 text-ink-700">
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col" className="px-3 py-2 text-start font-semibold">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  )
}

/**
 * A desk table that becomes cards on a phone: on a wide screen a table; on a phone each row a
 * card, its cells one under the other, each after its column's name (the head is then for
 * screen readers only). Its cells are DeskCardCell's.
 */
export function DeskCardTable({
  caption,
  columns,
  bodyClassName = '',
  children,
}: {
  caption: string
  /** The head's names; a name `hidden` is for screen readers only (an actions column). */
  columns: { name: string; hidden?: boolean }[]
  bodyClassName?: string
  children: React.ReactNode
}) {
  return (
    <table className="block w-full border-collapse text-start text-sm md:table">
      <caption className="sr-only">{caption}</caption>
      <thead className="sr-only bg-slate-50 text-ink-700 md:not-sr-only md:table-header-group">
        <tr>
          {columns.map((c) => (
            <th key={c.name} scope="col" className="px-3 py-2 text-start font-semibold">
              {c.hidden ? <span className="sr-only">{c.name}</span> : c.name}
            </th>
          ))}
        </tr>
      </thead>
      <tbody
        className={`block md:table-row-group [&>tr]:(block border-t border-slate-200 py-2 align-top md:table-row md:py-0) [&>tr:first-child]:border-t-0 md:[&>tr:first-child]:border-t ${bodyClassName}`}
      >
        {children}
      </tbody>
    </table>
  )
}

/** A cell of DeskCardTable: on a phone after its column's name, and left out when empty. */
export function DeskCardCell({
  name,
  className = '',
  children,
}: {
  name: string
  className?: string
  children: React.ReactNode
}) {
  return (
    // (on a phone, an empty cell is left out of the card; the table keeps its dash)
    <td
      className={`${children ? 'flex' : 'hidden'} gap-3 px-3 py-1 md:table-cell md:py-2 ${className}`}
    >
      <span
        aria-hidden="true"
        className="w-24 shrink-0 text-xs font-semibold text-ink-600 md:hidden"
      >
        {name}
      </span>
      <span className="min-w-0 break-words">{children ?? '—'}</span>
    </td>
  )
}

/** Every desk page's top: where the staff member is, and the other sections. */
export function DeskHeader({
  title,
  titleLang,
  section,
}: {
  title: string
  /** The title's own language when it is the agency's text, not the desk's words. */
  titleLang?: string
  section: DeskSection
}) {
  const { t, heldMail, deskRole } = usePage()
  return (
    <section className="bg-gradient-to-b from-brand-50 to-white">
      {heldMail > 0 && section !== '/desk/mail' && (
        <p role="status" className="m-0 bg-amber-100 px-4 py-2 text-center text-sm text-amber-900">
          {t.plural('desk.held_mail.title', heldMail)}{' '}
          <a href="/desk/mail?status=held" className="font-semibold text-amber-900 underline">
            {t('desk.held_mail.show')}
          </a>
        </p>
      )}
      <div className="container py-8">
        <nav aria-label={t('desk.eyebrow')}>
          <ul className="m-0 flex list-none flex-wrap gap-2 p-0">
            {sectionsFor(deskRole).map((s) => (
              <li key={s.href}>
                <a
                  href={s.href}
                  aria-current={s.href === section ? 'page' : undefined}
                  className="block rounded-full border border-slate-300 bg-white px-4 py-1.5 text-sm font-semibold text-ink-700 no-underline hover:bg-slate-50 aria-[current=page]:border-brand-600 aria-[current=page]:bg-brand-600 aria-[current=page]:text-white"
                >
                  {t(s.key)}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <h1
          lang={titleLang}
          className="m-0 mt-4 text-3xl font-extrabold tracking-tight text-ink-900"
        >
          {title}
        </h1>
      </div>
    </section>
  )
}

function Filters({ filter }: { filter: LeadFilter }) {
  const { t } = usePage()
  return (
    <form method="get" action="/desk" className="card grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <SelectField
        id="f-kind"
        name="kind"
        label={t('desk.kind')}
        placeholder={t('desk.all')}
        defaultValue={filter.kind ?? ''}
        options={LEAD_KINDS.map((k) => ({ value: k, label: t(`desk.kinds.${k}`) }))}
      />
      <SelectField
        id="f-status"
        name="status"
        label={t('desk.status')}
        placeholder={t('desk.all')}
        defaultValue={filter.status ?? ''}
        options={STATUSES.map((s) => ({ value: s, label: t(`desk.statuses.${s}`) }))}
      />
      <SelectField
        id="f-language"
        name="language"
        label={t('desk.language')}
        placeholder={t('desk.all')}
        defaultValue={filter.language ?? ''}
        options={LANGS.map((l) => ({ value: l, label: l.toUpperCase() }))}
      />
      <SelectField
        id="f-service"
        name="service"
        label={t('desk.service')}
        placeholder={t('desk.all')}
        defaultValue={filter.service ?? ''}
        options={SERVICES.map((s) => ({ value: s.key, label: t(`services.items.${s.key}.name`) }))}
      />
      <Field
        id="f-from"
        name="from"
        type="date"
        label={t('desk.from')}
        defaultValue={filter.from}
      />
      <Field id="f-to" name="to" type="date" label={t('desk.to')} defaultValue={filter.to} />
      <Field
        id="f-q"
        name="q"
        type="search"
        label={t('desk.search')}
        defaultValue={filter.q}
        maxLength={100}
      />
      <div className="flex items-end gap-3">
        <button type="submit" className="btn-primary">
          {t('desk.apply')}
        </button>
        <a href="/desk" className="btn-ghost">
          {t('desk.clear')}
        </a>
      </div>
    </form>
  )
}

const leadHref = (l: Pick<LeadRow, 'kind' | 'id'>) => `/desk/leads/${l.kind}/${l.id}`

const COLUMNS = ['when', 'kind', 'name', 'email', 'language', 'about', 'handled'] as const

/**
 * The inbox's rows. A page holds 50 and the server renders it on every visit, so each row is
 * lean: the cells' styles are set once on the table, the labels translated once per page.
 */
function LeadTable({ leads }: { leads: LeadRow[] }) {
  const { t, lang, config } = usePage()
  const kinds = Object.fromEntries(LEAD_KINDS.map((k) => [k, t(`desk.kinds.${k}`)]))
  const statuses = Object.fromEntries(STATUSES.map((s) => [s, `${t(`desk.statuses.${s}`)} · `]))
  const [yes, no] = [t('desk.yes'), t('desk.no')]
  return (
    <table className="w-full border-collapse text-start text-sm [&_td]:(px-3 py-2) [&_th]:(px-3 py-2 text-start font-semibold)">
      <caption className="sr-only">{t('desk.leads')}</caption>
      <thead className="bg-slate-50 text-ink-700">
        <tr>
          {COLUMNS.map((col) => (
            <th key={col} scope="col">
              {t(`desk.columns.${col}`)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="[&>tr]:(border-t border-slate-200 align-top) [&_a]:(font-semibold text-brand-700)">
        {leads.map((l) => (
          <tr key={`${l.kind}-${l.id}`}>
            <td className="whitespace-nowrap">{when(lang, l.created_at, config.timeZone)}</td>
            <td>{kinds[l.kind]}</td>
            <td>
              <a href={leadHref(l)}>{l.name || l.email}</a>
            </td>
            <td dir="ltr">{l.email}</td>
            <td>{languageName(lang, l.language)}</td>
            <td className="max-w-xs text-ink-700">
              {l.status ? statuses[l.status] : ''}
              {l.detail}
              {l.unchecked ? (
                <span className="mt-1 block text-xs font-semibold text-amber-800">
                  {t('desk.unchecked')}
                </span>
              ) : null}
            </td>
            <td>{l.handled_at ? yes : no}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** /desk: every lead, newest first, filtered; a page at a time. */
export function DeskInboxPage({
  filter,
  leads,
  next,
}: {
  filter: LeadFilter
  leads: LeadRow[]
  next: string | null
}) {
  const { t } = usePage()
  return (
    <>
      <DeskHeader title={t('desk.leads')} section="/desk" />
      <div className="container space-y-6 pb-16">
        <Filters filter={filter} />
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="m-0 text-sm text-ink-600" role="status">
            {leads.length ? t.plural('desk.showing', leads.length) : t('desk.none')}
          </p>
          <a href={`/desk/leads.csv?${filterQuery(filter)}`} className="btn-ghost py-2 text-sm">
            {t('desk.export')}
          </a>
        </div>
        {leads.length > 0 && (
          <div className="overflow-x-auto rounded-2xl border border-slate-200">
            <LeadTable leads={leads} />
          </div>
        )}
        {next && (
          <a href={`/desk?${filterQuery(filter, { after: next })}`} className="btn-ghost">
            {t('desk.older')}
          </a>
        )}
      </div>
    </>
  )
}

type History = Awaited<ReturnType<typeof personalRows>>

/** One lead: what they sent, the agency's mark and note, and everything else under their address. */
export function DeskLeadPage({
  lead,
  history,
  saved,
}: {
  lead: LeadRow & { kind: LeadKind }
  history: History
  saved: boolean
}) {
  const { t, lang, config } = usePage()
  const sections = [
    ['subscriptions', history.subscriptions],
    ['guide_requests', history.guide_requests],
    ['contact_messages', history.contact_messages],
    ['bookings', history.bookings],
    ['emails', history.emails],
  ] as const
  return (
    <>
      <DeskHeader title={lead.name || lead.email} section="/desk" />
      <div className="container grid gap-6 pb-16 lg:grid-cols-3">
        {/* min-w-0: a long line wraps in its box, not widens the page on a phone */}
        <section aria-labelledby="lead-title" className="card min-w-0 lg:col-span-2">
          <h2 id="lead-title" className="m-0 text-xl font-bold">
            {t(`desk.kinds.${lead.kind}`)} · {when(lang, lead.created_at, config.timeZone)}
          </h2>
          <dl className="m-0 mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm [overflow-wrap:anywhere]">
            <dt className="font-semibold">{t('desk.columns.email')}</dt>
            <dd className="m-0" dir="ltr">
              {lead.email}
            </dd>
            <dt className="font-semibold">{t('desk.columns.language')}</dt>
            <dd className="m-0">{languageName(lang, lead.language)}</dd>
            <dt className="font-semibold">{t('desk.columns.about')}</dt>
            <dd className="m-0 whitespace-pre-wrap">{lead.detail}</dd>
          </dl>
          <h2 className="m-0 mt-8 text-lg font-bold">{t('desk.history')}</h2>
          {sections.map(([name, rows]) => (
            <details key={name} className="mt-3" open={rows.length > 0}>
              <summary className="cursor-pointer font-semibold">
                {t(`desk.sections.${name}`)} ({rows.length})
              </summary>
              {rows.length > 0 && (
                <pre
                  className="m-0 mt-2 whitespace-pre-wrap rounded-lg bg-slate-50 p-3 text-xs [overflow-wrap:anywhere]"
                  dir="ltr"
                >
                  {JSON.stringify(rows, null, 2)}
                </pre>
              )}
            </details>
          ))}
        </section>
        <section aria-labelledby="mark-title" className="card self-start">
          <h2 id="mark-title" className="m-0 text-xl font-bold">
            {t('desk.mark')}
          </h2>
          {saved && <DeskNotice className="mt-3">{t('desk.saved')}</DeskNotice>}
          <form
            method="post"
            action={`/desk/leads/${lead.kind}/${lead.id}`}
            className="mt-4 space-y-4"
          >
            <label className="flex items-center gap-3 font-semibold" htmlFor="handled">
              <input
                id="handled"
                type="checkbox"
                name="handled"
                value="1"
                defaultChecked={Boolean(lead.handled_at)}
                className="h-4 w-4 accent-brand-600"
              />
              {t('desk.handled')}
            </label>
            <div>
              <label htmlFor="note" className="mb-1 block text-sm font-medium text-ink-700">
                {t('desk.note')}
              </label>
              <textarea
                id="note"
                name="note"
                rows={5}
                maxLength={2000}
                defaultValue={lead.note ?? ''}
                className="w-full rounded-lg border border-slate-300 px-3 py-2"
              />
            </div>
            <button type="submit" className="btn-primary">
              {t('desk.save')}
            </button>
          </form>
          <p className="m-0 mt-4 text-sm">
            <a href="/desk" className="text-brand-700">
              {t('desk.back')}
            </a>
          </p>
        </section>
      </div>
    </>
  )
}
