import type { ReactNode } from 'react'
import { Field, inputClass, labelClass } from '../../../client/components/field'
import { isolate } from '../../components/auth-form'
import {
  FORMATS,
  RESPONSE_START,
  type AttemptRow,
  type EndpointRow,
} from '../../db/webhook-endpoints'
import { formatDateTime, formatNumber, zonedFieldValue } from '../../i18n/format'
import { isMessageKey, type Translator } from '../../i18n/translator'
import { usePage } from '../../render/context'
import { DeskCardCell, DeskCardTable, DeskHeader, DeskNotice } from './leads'

/** What the integrations page says was done, and what it refused (desk/integrations.tsx). */
export const INTEGRATION_DONE = ['saved', 'enabled', 'disabled', 'deleted', 'test_sent'] as const
export const INTEGRATION_ERRORS = ['not_found', 'invalid', 'test_off', 'unavailable'] as const
export type IntegrationError = (typeof INTEGRATION_ERRORS)[number]

export const LOG_DONE = ['replayed', 'replayed_failed'] as const
export const LOG_ERRORS = ['filter', 'since', 'not_found', 'replay_off', 'unavailable'] as const
export type LogError = (typeof LOG_ERRORS)[number]

/** The endpoint form as typed, kept when it is refused. */
export interface EndpointForm {
  url: string
  events: string[]
  format: string
  personal: boolean
  description: string
}

/** Each field's problem (desk_integrations.field_errors.<field>.<problem>). */
export interface FieldErrors {
  url?: 'missing' | 'too_long' | 'invalid' | 'not_https' | 'private' | 'localhost'
  events?: 'invalid'
  format?: 'invalid'
  personal?: 'invalid'
  description?: 'invalid'
}

/** A secret, in the answer that made it only. */
export interface ShownSecret {
  url: string
  secret: string
  rotated: boolean
}

/** The log's filter as the form shows it. */
export interface LogQuery {
  show?: string
  endpoint?: string
}

const small = 'btn-ghost px-3 py-1.5 text-sm'

/** An event type's name in the page's language; one the page has no name for, as sent. */
const eventName = (t: Translator, type: string) => {
  const key = `desk_integrations.event_names.${type}`
  return isMessageKey(key) ? t(key) : type
}

/** A URL, isolated from the text around it, broken anywhere a narrow column needs. */
const Url = ({ url, className = '' }: { url: string; className?: string }) => (
  <bdi dir="ltr" className={`break-all ${className}`}>
    {url}
  </bdi>
)

const parseEvents = (json: string): string[] => {
  try {
    const events: unknown = JSON.parse(json)
    return Array.isArray(events) ? events.map(String) : []
  } catch {
    return []
  }
}

/** The secret shown once: copied now, or never seen again. */
function SecretBox({ shown }: { shown: ShownSecret }) {
  const { t } = usePage()
  return (
    <section
      aria-labelledby="secret-title"
      className="space-y-3 rounded-2xl border-2 border-amber-500 bg-amber-50 p-5 text-amber-950"
    >
      <p role="status" className="m-0 text-sm font-semibold text-green-800">
        {t(
          shown.rotated
            ? 'desk_integrations.secret.rotated_done'
            : 'desk_integrations.secret.created_done',
        )}
      </p>
      <h2 id="secret-title" className="m-0 text-lg font-bold">
        {t('desk_integrations.secret.title', { url: isolate(shown.url) })}
      </h2>
      <p className="m-0 font-semibold">{t('desk_integrations.secret.once')}</p>
      <label htmlFor="shown-secret" className="sr-only">
        {t('desk_integrations.secret.label')}
      </label>
      <input
        id="shown-secret"
        readOnly
        dir="ltr"
        value={shown.secret}
        className={`${inputClass} font-mono text-sm`}
        autoComplete="off"
        spellCheck={false}
      />
      {shown.rotated && <p className="m-0 text-sm">{t('desk_integrations.secret.old_works')}</p>}
      <p className="m-0 text-sm">{t('desk_integrations.secret.use')}</p>
    </section>
  )
}

/** The endpoint's fields: the same for adding one and changing one. */
function EndpointFields({
  prefix,
  form,
  errors = {},
  eventTypes,
}: {
  prefix: string
  form?: EndpointForm
  errors?: FieldErrors
  eventTypes: readonly string[]
}) {
  const { t } = usePage()
  const error = (field: keyof FieldErrors) =>
    errors[field]
      ? t(`desk_integrations.field_errors.${field}.${errors[field]}` as never)
      : undefined
  const chosen = new Set(form?.events ?? [])
  const format = form?.format ?? 'standard'
  return (
    <>
      <Field
        id={`${prefix}-url`}
        name="url"
        type="url"
        required
        maxLength={2000}
        dir="ltr"
        autoComplete="off"
        spellCheck={false}
        inputMode="url"
        placeholder="https://"
        label={t('desk_integrations.url')}
        hint={t('desk_integrations.url_hint')}
        error={error('url')}
        defaultValue={form?.url}
        className="md:col-span-2"
      />
      <fieldset
        className="m-0 min-w-0 border-0 p-0"
        aria-describedby={errors.events ? `${prefix}-events-error` : undefined}
      >
        <legend className={labelClass}>{t('desk_integrations.events_legend')}</legend>
        <ul className="m-0 grid list-none gap-1 p-0">
          {eventTypes.map((type) => (
            <li key={type}>
              <label className="flex items-start gap-2 text-sm text-ink-900">
                <input
                  type="checkbox"
                  name="events"
                  value={type}
                  defaultChecked={chosen.has(type)}
                  className="mt-0.5 size-4 shrink-0"
                />
                <span>
                  {eventName(t, type)}{' '}
                  <code dir="ltr" className="text-xs text-ink-600">
                    {type}
                  </code>
                </span>
              </label>
            </li>
          ))}
        </ul>
        {error('events') && (
          <p id={`${prefix}-events-error`} className="m-0 mt-1 text-sm text-red-700">
            {error('events')}
          </p>
        )}
      </fieldset>
      <div className="space-y-4">
        <fieldset
          className="m-0 min-w-0 border-0 p-0"
          aria-describedby={errors.format ? `${prefix}-format-error` : undefined}
        >
          <legend className={labelClass}>{t('desk_integrations.format_legend')}</legend>
          <div className="space-y-2">
            {FORMATS.map((f) => (
              <label
                key={f}
                className="grid grid-cols-[auto_minmax(0,1fr)] items-start gap-x-2 text-sm font-semibold text-ink-900"
              >
                <input
                  type="radio"
                  name="format"
                  value={f}
                  required
                  defaultChecked={format === f}
                  className="mt-0.5 size-4"
                />
                {t(`desk_integrations.formats.${f}`)}
                <span className="col-start-2 text-xs font-normal text-ink-600">
                  {t(`desk_integrations.formats.${f}_hint`)}
                </span>
              </label>
            ))}
          </div>
          {error('format') && (
            <p id={`${prefix}-format-error`} className="m-0 mt-1 text-sm text-red-700">
              {error('format')}
            </p>
          )}
        </fieldset>
        <label className="grid grid-cols-[auto_minmax(0,1fr)] items-start gap-x-2 text-sm font-semibold text-ink-900">
          <input
            type="checkbox"
            name="personal"
            value="1"
            defaultChecked={form?.personal ?? false}
            className="mt-0.5 size-4"
          />
          {t('desk_integrations.personal')}
          <span className="col-start-2 text-xs font-normal text-ink-600">
            {t('desk_integrations.personal_hint')}
          </span>
        </label>
      </div>
      <Field
        id={`${prefix}-description`}
        name="description"
        maxLength={200}
        label={t('desk_integrations.description')}
        hint={t('desk_integrations.description_hint')}
        error={error('description')}
        defaultValue={form?.description}
        className="md:col-span-2"
      />
    </>
  )
}

/** The endpoint's row as its edit form starts: what is saved. */
const formOf = (e: EndpointRow): EndpointForm => ({
  url: e.url,
  events: parseEvents(e.events),
  format: e.format,
  personal: !!e.personal,
  description: e.description,
})

/** An answer's status as the page says it: its code, or what went wrong instead. */
function AttemptStatus({ status, error }: { status: number | null; error: string | null }) {
  const { t } = usePage()
  const ok = status !== null && status >= 200 && status < 300
  return (
    <span className={`font-semibold ${ok ? 'text-green-800' : 'text-red-700'}`}>
      {status !== null ? (
        <span dir="ltr">{status}</span>
      ) : (
        <>
          {t('desk_integrations.log.no_answer')}
          {error && (
            <>
              {' '}
              <code dir="ltr" className="break-words font-normal">
                {`(${error})`}
              </code>
            </>
          )}
        </>
      )}
    </span>
  )
}

function EndpointCard({
  endpoint: e,
  now,
  eventTypes,
  edited,
  errors,
}: {
  endpoint: EndpointRow
  now: string
  eventTypes: readonly string[]
  edited?: EndpointForm
  errors?: FieldErrors
}) {
  const { t, lang, config } = usePage()
  const when = (iso: string) => formatDateTime(lang, iso, config.timeZone)
  const events = parseEvents(e.events)
  const on = !!e.enabled
  const rotating = e.previous_until && e.previous_until > now
  const label = (action: string) => `${action}: ${e.url}`
  return (
    <li className="card min-w-0 space-y-4" data-endpoint={e.id}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 flex-1 space-y-1">
          <p className="m-0 font-semibold text-ink-900">
            <Url url={e.url} />
          </p>
          {e.description && <p className="m-0 text-sm text-ink-700">{e.description}</p>}
        </div>
        <span
          className={`shrink-0 rounded-full px-3 py-1 text-xs font-bold ${on ? 'bg-green-100 text-green-800' : 'bg-slate-200 text-ink-700'}`}
        >
          {t(on ? 'desk_integrations.state.on' : 'desk_integrations.state.off')}
        </span>
      </div>
      {!on && e.disabled_reason && (
        <p
          className={`m-0 rounded-lg p-3 text-sm ${e.disabled_reason === 'manual' ? 'bg-slate-100 text-ink-700' : 'bg-amber-50 text-amber-900'}`}
        >
          {t(
            `desk_integrations.reasons.${(['manual', 'gone', 'failing'] as const).find((r) => r === e.disabled_reason) ?? 'manual'}`,
            { date: e.disabled_at ? when(e.disabled_at) : '—' },
          )}
        </p>
      )}
      {on && e.failing_since && (
        <p className="m-0 rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
          {t('desk_integrations.failing_since', { date: when(e.failing_since) })}
        </p>
      )}
      <dl className="m-0 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1.5 text-sm">
        <dt className="text-ink-600">{t('desk_integrations.labels.events')}</dt>
        <dd className="m-0">
          {events.length ? events.map((type) => eventName(t, type)).join(' · ') : '—'}
        </dd>
        <dt className="text-ink-600">{t('desk_integrations.labels.format')}</dt>
        <dd className="m-0">
          {t(`desk_integrations.formats.${e.format === 'slack' ? 'slack' : 'standard'}`)}
        </dd>
        <dt className="text-ink-600">{t('desk_integrations.labels.personal')}</dt>
        <dd className="m-0">
          {t(e.personal ? 'desk_integrations.personal_on' : 'desk_integrations.personal_off')}
        </dd>
        <dt className="text-ink-600">{t('desk_integrations.labels.secret')}</dt>
        <dd className="m-0">
          <code dir="ltr">{`${e.secret_start}…`}</code>
          {rotating && (
            <span className="block text-xs text-ink-600">
              {t('desk_integrations.secret.previous_until', { date: when(e.previous_until!) })}
            </span>
          )}
        </dd>
        <dt className="text-ink-600">{t('desk_integrations.labels.last')}</dt>
        <dd className="m-0">
          {e.last_at ? (
            <>
              <AttemptStatus status={e.last_status} error={e.last_error} />{' '}
              <span className="text-ink-600">
                · <time dateTime={e.last_at}>{when(e.last_at)}</time>
              </span>
            </>
          ) : (
            t('desk_integrations.last_none')
          )}
        </dd>
        <dt className="text-ink-600">{t('desk_integrations.labels.added')}</dt>
        <dd className="m-0">
          <time dateTime={e.created_at}>{when(e.created_at)}</time>
        </dd>
      </dl>
      <div className="flex flex-wrap gap-2 border-t border-slate-200 pt-4">
        <form method="post" action={`/desk/integrations/${e.id}/toggle`}>
          <input type="hidden" name="enabled" value={on ? '0' : '1'} />
          <button
            type="submit"
            className={small}
            aria-label={label(t(on ? 'desk_integrations.turn_off' : 'desk_integrations.turn_on'))}
          >
            {t(on ? 'desk_integrations.turn_off' : 'desk_integrations.turn_on')}
          </button>
        </form>
        {on && (
          <form method="post" action={`/desk/integrations/${e.id}/test`}>
            <button
              type="submit"
              className={small}
              aria-label={label(t('desk_integrations.send_test'))}
            >
              {t('desk_integrations.send_test')}
            </button>
          </form>
        )}
        <a
          href={`/desk/integrations/log?endpoint=${e.id}`}
          className={small}
          aria-label={label(t('desk_integrations.its_log'))}
        >
          {t('desk_integrations.its_log')}
        </a>
      </div>
      <details open={!!edited} className="group">
        <summary className="cursor-pointer text-sm font-semibold text-brand-700">
          {t('desk_integrations.edit')}
        </summary>
        <form
          method="post"
          action={`/desk/integrations/${e.id}`}
          className="mt-3 grid gap-4 md:grid-cols-2"
          noValidate={!!errors}
        >
          {errors && (
            <DeskNotice ok={false} className="md:col-span-2">
              {t('desk_integrations.errors.form')}
            </DeskNotice>
          )}
          <EndpointFields
            prefix={`edit-${e.id}`}
            form={edited ?? formOf(e)}
            errors={errors}
            eventTypes={eventTypes}
          />
          <div className="md:col-span-2">
            <button type="submit" className="btn-primary px-4 py-2 text-sm">
              {t('desk_integrations.save_button')}
            </button>
          </div>
        </form>
      </details>
      <details>
        <summary className="cursor-pointer text-sm font-semibold text-ink-700">
          {t('desk_integrations.rotate')}
        </summary>
        <form method="post" action={`/desk/integrations/${e.id}/rotate`} className="mt-2 space-y-2">
          <p className="m-0 text-sm text-ink-700">{t('desk_integrations.rotate_text')}</p>
          <button type="submit" className="btn-primary px-3 py-1.5 text-sm">
            {t('desk_integrations.rotate_button')}
          </button>
        </form>
      </details>
      <details>
        <summary className="cursor-pointer text-sm font-semibold text-red-700">
          {t('desk_integrations.delete')}
        </summary>
        <form method="post" action={`/desk/integrations/${e.id}/delete`} className="mt-2 space-y-2">
          <p className="m-0 text-sm text-ink-700">{t('desk_integrations.delete_text')}</p>
          <button
            type="submit"
            className="btn-danger max-w-full px-3 py-1.5 text-sm"
            aria-label={label(t('desk_integrations.delete'))}
          >
            {t('desk_integrations.delete_button')}
          </button>
        </form>
      </details>
    </li>
  )
}

/** /desk/integrations: the endpoints, each with its state and actions; a form to add one. */
export function DeskIntegrationsPage({
  endpoints,
  now,
  eventTypes,
  done,
  error,
  created,
  edited,
  errors,
  secret,
}: {
  endpoints: EndpointRow[]
  /** The instant of the request (a rotation's old secret still signing?) */
  now: string
  eventTypes: readonly string[]
  done?: (typeof INTEGRATION_DONE)[number]
  error?: IntegrationError
  created?: EndpointForm
  edited?: { id: number; form: EndpointForm }
  errors?: FieldErrors
  secret?: ShownSecret
}) {
  const { t } = usePage()
  return (
    <>
      <DeskHeader title={t('desk.nav.integrations')} section="/desk/integrations" />
      <div className="container space-y-10 pb-16">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <p className="m-0 max-w-3xl text-ink-700">{t('desk_integrations.intro')}</p>
          <a href="/desk/integrations/log" className="btn-ghost py-2 text-sm">
            {t('desk_integrations.log.title')}
          </a>
        </div>
        {secret && <SecretBox shown={secret} />}
        {done && <DeskNotice>{t(`desk_integrations.done.${done}`)}</DeskNotice>}
        {error && <DeskNotice ok={false}>{t(`desk_integrations.errors.${error}`)}</DeskNotice>}
        <section aria-labelledby="endpoints-title" className="space-y-4">
          <h2 id="endpoints-title" className="m-0 text-xl font-bold text-ink-900">
            {t('desk_integrations.endpoints_title')}
          </h2>
          {endpoints.length === 0 ? (
            <p className="m-0 text-ink-600">{t('desk_integrations.none')}</p>
          ) : (
            <ul className="m-0 grid list-none gap-4 p-0 lg:grid-cols-2">
              {endpoints.map((e) => (
                <EndpointCard
                  key={e.id}
                  endpoint={e}
                  now={now}
                  eventTypes={eventTypes}
                  edited={edited?.id === e.id ? edited.form : undefined}
                  errors={edited?.id === e.id ? errors : undefined}
                />
              ))}
            </ul>
          )}
        </section>
        <section aria-labelledby="add-title" className="space-y-4">
          <h2 id="add-title" className="m-0 text-xl font-bold text-ink-900">
            {t('desk_integrations.add_title')}
          </h2>
          <form
            method="post"
            action="/desk/integrations"
            className="card grid gap-5 md:grid-cols-2"
            noValidate={!!(created && errors)}
          >
            {created && errors && (
              <DeskNotice ok={false} className="md:col-span-2">
                {t('desk_integrations.errors.form')}
              </DeskNotice>
            )}
            <EndpointFields
              prefix="add"
              form={created}
              errors={created ? errors : undefined}
              eventTypes={eventTypes}
            />
            <div className="md:col-span-2">
              <button type="submit" className="btn-primary">
                {t('desk_integrations.add_button')}
              </button>
            </div>
          </form>
        </section>
      </div>
    </>
  )
}

const COLUMNS = ['when', 'endpoint', 'event', 'status', 'duration', 'answer', 'action'] as const

/** The log's query string (the older page's link keeps the filter). */
const queryOf = (query: LogQuery, extra: Record<string, string> = {}) =>
  new URLSearchParams({
    ...(Object.fromEntries(Object.entries(query).filter(([, v]) => v)) as Record<string, string>),
    ...extra,
  }).toString()

/**
 * The attempts: a table on a wide screen; on a phone each row is a card, its cells one under
 * the other, each after its column's name (as the history's table).
 */
function LogTable({ rows }: { rows: AttemptRow[] }) {
  const { t, lang, config } = usePage()
  const names = Object.fromEntries(COLUMNS.map((c) => [c, t(`desk_integrations.log.columns.${c}`)]))
  const cell = (column: (typeof COLUMNS)[number], children: ReactNode, className = '') => (
    <DeskCardCell name={names[column]} className={className}>
      {children}
    </DeskCardCell>
  )
  return (
    <DeskCardTable
      caption={t('desk_integrations.log.title')}
      columns={COLUMNS.map((c) => ({ name: names[c], hidden: c === 'action' }))}
    >
      {rows.map((r) => {
        const answer = r.response
          ? r.response.length > RESPONSE_START
            ? `${r.response.slice(0, RESPONSE_START)}…`
            : r.response
          : null
        return (
          <tr key={r.id} data-attempt={r.id} data-delivery={r.delivery_id}>
            {cell(
              'when',
              <time dateTime={r.at}>{formatDateTime(lang, r.at, config.timeZone)}</time>,
              'md:whitespace-nowrap',
            )}
            {cell(
              'endpoint',
              r.url ? (
                <Url url={r.url} />
              ) : (
                <span className="italic text-ink-600">{t('desk_integrations.log.gone')}</span>
              ),
              'md:max-w-56',
            )}
            {cell('event', eventName(t, r.event_type), 'font-semibold text-ink-900')}
            {cell('status', <AttemptStatus status={r.status} error={r.error} />)}
            {cell(
              'duration',
              t('desk_integrations.log.ms', { n: formatNumber(lang, r.duration_ms) }),
              'md:whitespace-nowrap',
            )}
            {cell(
              'answer',
              answer && (
                <code
                  dir="ltr"
                  className="block max-h-24 overflow-hidden whitespace-pre-wrap break-all rounded bg-slate-50 px-2 py-1 text-xs text-ink-700"
                >
                  {answer}
                </code>
              ),
              'md:max-w-xs',
            )}
            {cell(
              'action',
              <form
                method="post"
                action={`/desk/integrations/log/deliveries/${r.delivery_id}/replay`}
              >
                <button
                  type="submit"
                  className="btn-ghost whitespace-nowrap px-3 py-1 text-xs"
                  aria-label={t('desk_integrations.log.replay_label', {
                    event: eventName(t, r.event_type),
                    when: formatDateTime(lang, r.at, config.timeZone),
                  })}
                >
                  {t('desk_integrations.log.replay')}
                </button>
              </form>,
            )}
          </tr>
        )
      })}
    </DeskCardTable>
  )
}

/** /desk/integrations/log: every attempt, newest first, a page at a time; replays. */
export function DeskIntegrationsLogPage({
  query,
  now,
  endpoints,
  rows,
  next,
  done,
  count,
  error,
}: {
  query: LogQuery
  /** The instant of the request (the replay form starts a day before it) */
  now: string
  endpoints: EndpointRow[]
  rows: AttemptRow[]
  next: string | null
  done?: (typeof LOG_DONE)[number]
  count?: number
  error?: LogError
}) {
  const { t, config } = usePage()
  // the replay form starts a day back, in the agency's zone
  const dayAgo = zonedFieldValue(
    new Date(Date.parse(now) - 86_400_000).toISOString(),
    config.timeZone,
  )
  return (
    <>
      <DeskHeader title={t('desk_integrations.log.title')} section="/desk/integrations" />
      <div className="container space-y-6 pb-16">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <p className="m-0 max-w-3xl text-ink-700">{t('desk_integrations.log.intro')}</p>
          <a href="/desk/integrations" className="btn-ghost py-2 text-sm">
            {t('desk_integrations.log.back')}
          </a>
        </div>
        {done === 'replayed' && <DeskNotice>{t('desk_integrations.log.done.replayed')}</DeskNotice>}
        {done === 'replayed_failed' && count !== undefined && (
          <DeskNotice>{t.plural('desk_integrations.log.done.replayed_failed', count)}</DeskNotice>
        )}
        {error && <DeskNotice ok={false}>{t(`desk_integrations.log.errors.${error}`)}</DeskNotice>}
        <div className="grid gap-4 lg:grid-cols-2">
          <form
            method="get"
            action="/desk/integrations/log"
            className="card grid gap-4 sm:grid-cols-2"
          >
            <div>
              <label htmlFor="log-show" className={labelClass}>
                {t('desk_integrations.log.show')}
              </label>
              <select
                id="log-show"
                name="show"
                defaultValue={query.show ?? 'all'}
                className={inputClass}
              >
                <option value="all">{t('desk_integrations.log.show_all')}</option>
                <option value="failures">{t('desk_integrations.log.show_failures')}</option>
              </select>
            </div>
            <div className="min-w-0">
              <label htmlFor="log-endpoint" className={labelClass}>
                {t('desk_integrations.log.endpoint')}
              </label>
              <select
                id="log-endpoint"
                name="endpoint"
                defaultValue={query.endpoint ?? ''}
                className={`${inputClass} truncate`}
              >
                <option value="">{t('desk_integrations.log.all_endpoints')}</option>
                {endpoints.map((e) => (
                  <option key={e.id} value={String(e.id)}>
                    {e.description ? `${e.description} (${e.url})` : e.url}
                  </option>
                ))}
              </select>
            </div>
            <div className="flex flex-wrap items-end gap-3 sm:col-span-2">
              <button type="submit" className="btn-primary py-2">
                {t('desk.apply')}
              </button>
              <a href="/desk/integrations/log" className="btn-ghost py-2">
                {t('desk.clear')}
              </a>
            </div>
          </form>
          <form
            method="post"
            action="/desk/integrations/log/replay-failed"
            className="card space-y-3"
            aria-labelledby="replay-title"
          >
            <h2 id="replay-title" className="m-0 text-base font-bold text-ink-900">
              {t('desk_integrations.log.replay_since_title')}
            </h2>
            <Field
              id="replay-since"
              name="since"
              type="datetime-local"
              required
              label={t('desk_integrations.log.replay_since_label')}
              hint={t('desk_integrations.log.replay_since_hint')}
              error={error === 'since' ? t('desk_integrations.log.errors.since') : undefined}
              defaultValue={dayAgo}
            />
            <button type="submit" className="btn-primary py-2 text-sm">
              {t('desk_integrations.log.replay_since_button')}
            </button>
          </form>
        </div>
        <p className="m-0 text-sm text-ink-600" role="status">
          {rows.length
            ? t.plural('desk_integrations.log.showing', rows.length)
            : t('desk_integrations.log.none')}
        </p>
        {rows.length > 0 && (
          <div className="rounded-2xl border border-slate-200 md:overflow-x-auto">
            <LogTable rows={rows} />
          </div>
        )}
        {next && (
          <a
            href={`/desk/integrations/log?${queryOf(query, { after: next })}`}
            className="btn-ghost"
          >
            {t('desk_integrations.log.older')}
          </a>
        )}
      </div>
    </>
  )
}
