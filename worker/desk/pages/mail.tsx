import type { OutboxRow } from '../../db/outbox'
import { formatDateTime } from '../../i18n/format'
import { usePage } from '../../render/context'
import { DeskHeader, DeskNotice, DeskTable } from './leads'

type MailLine = Pick<
  OutboxRow,
  'id' | 'created_at' | 'kind' | 'to_address' | 'subject' | 'status' | 'attempts' | 'last_error'
> & { resendable: boolean }

const STATUSES = ['queued', 'sending', 'sent', 'failed', 'suppressed', 'held'] as const

/** What the page says was done: a failed e-mail sent again, the held ones sent or dropped. */
export const MAIL_DONE = ['resent', 'released', 'dropped'] as const
type MailDone = (typeof MAIL_DONE)[number]

/** The outbox: each e-mail with its status, attempts and error; failed ones can go again. */
export function DeskMailPage({
  status,
  mails,
  next,
  done,
}: {
  status?: string
  mails: MailLine[]
  next: number | null
  done?: MailDone
}) {
  const { t, lang, config, heldMail } = usePage()
  const when = (iso: string) => formatDateTime(lang, iso, config.timeZone)
  return (
    <>
      <DeskHeader title={t('desk.nav.mail')} section="/desk/mail" />
      <div className="container space-y-6 pb-16">
        <nav aria-label={t('desk.mail_status')}>
          <ul className="m-0 flex list-none flex-wrap gap-2 p-0 text-sm">
            {[undefined, ...STATUSES].map((s) => (
              <li key={s ?? 'all'}>
                <a
                  href={s ? `/desk/mail?status=${s}` : '/desk/mail'}
                  aria-current={s === status ? 'page' : undefined}
                  className="block rounded-lg border border-slate-300 px-3 py-1 text-ink-700 no-underline aria-[current=page]:border-brand-600 aria-[current=page]:font-semibold aria-[current=page]:text-brand-700"
                >
                  {s ? t(`desk.mail_statuses.${s}`) : t('desk.all')}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        {done && <DeskNotice>{t(`desk.mail_done.${done}`)}</DeskNotice>}
        {heldMail > 0 && (
          <section
            aria-labelledby="held-mail-title"
            className="rounded-xl border border-amber-300 bg-amber-50 p-4"
          >
            <h2 id="held-mail-title" className="m-0 text-lg font-bold text-amber-900">
              {t.plural('desk.held_mail.title', heldMail)}
            </h2>
            <p className="m-0 mt-1 text-sm text-amber-900">{t('desk.held_mail.text')}</p>
            <div className="mt-3 flex flex-wrap gap-2">
              {status !== 'held' && (
                <a href="/desk/mail?status=held" className="btn-ghost px-3 py-1.5 text-sm">
                  {t('desk.held_mail.show')}
                </a>
              )}
              <form method="post" action="/desk/mail/held/release">
                <button type="submit" className="btn-primary px-3 py-1.5 text-sm">
                  {t('desk.held_mail.release')}
                </button>
              </form>
              <form method="post" action="/desk/mail/held/drop">
                <button type="submit" className="btn-ghost px-3 py-1.5 text-sm">
                  {t('desk.held_mail.drop')}
                </button>
              </form>
            </div>
          </section>
        )}
        {mails.length === 0 ? (
          <p className="m-0 text-ink-600">{t('desk.no_mail')}</p>
        ) : (
          <DeskTable
            caption={t('desk.nav.mail')}
            columns={(
              ['when', 'to', 'subject', 'status', 'attempts', 'error', 'action'] as const
            ).map((c) => t(`desk.mail_columns.${c}`))}
          >
            {mails.map((m) => (
              <tr key={m.id} className="border-t border-slate-200 align-top">
                <td className="whitespace-nowrap px-3 py-2">{when(m.created_at)}</td>
                <td className="px-3 py-2" dir="ltr">
                  {m.to_address}
                </td>
                <td className="max-w-xs px-3 py-2">
                  {m.subject}
                  <span className="block text-xs text-ink-600">{m.kind}</span>
                </td>
                <td className="px-3 py-2">{t(`desk.mail_statuses.${m.status}`)}</td>
                <td className="px-3 py-2">{m.attempts}</td>
                <td className="max-w-xs break-words px-3 py-2 text-xs text-ink-700">
                  {m.last_error}
                </td>
                <td className="px-3 py-2">
                  {m.resendable && (
                    <form method="post" action={`/desk/mail/${m.id}/resend`}>
                      <button
                        type="submit"
                        className="btn-ghost px-3 py-1.5 text-sm"
                        aria-label={`${t('desk.resend')}: ${m.subject}`}
                      >
                        {t('desk.resend')}
                      </button>
                    </form>
                  )}
                </td>
              </tr>
            ))}
          </DeskTable>
        )}
        {next && (
          <a
            href={`/desk/mail?${new URLSearchParams({ ...(status ? { status } : {}), after: String(next) })}`}
            className="btn-ghost"
          >
            {t('desk.older')}
          </a>
        )}
      </div>
    </>
  )
}
