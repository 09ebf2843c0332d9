import { LANGS, LANGUAGE_NAMES } from '../../../client/lib/languages'
import type { Snapshot } from '../../content/snapshot'
import { itemTitle } from '../../db/content'
import type { ContentKind } from '../../db/content-kinds'
import { formatDateTime } from '../../i18n/format'
import { usePage } from '../../render/context'
import type { DeskDown } from '../../env'
import { DeskHeader, DeskNotice, DeskTable } from './leads'

/**
 * The content desk while D1 or the sign-in service does not answer: what the site shows (the
 * kind's snapshot, content/snapshot.ts), read-only, and a notice saying which is down and when
 * the snapshot was saved.
 */
export function ContentSnapshotPage({
  kind,
  snapshot,
  down,
}: {
  kind: ContentKind
  snapshot: Snapshot | null
  down: DeskDown
}) {
  const { t, lang, config } = usePage()
  const english = snapshot?.items.en ?? []
  return (
    <>
      <DeskHeader title={t('desk.nav.content')} section="/desk/content" />
      <div className="container space-y-6 pb-16">
        <DeskNotice ok={false}>
          {t(down === 'sign-in' ? 'outage.desk_snapshot_sign_in' : 'outage.desk_snapshot', {
            at: snapshot ? formatDateTime(lang, snapshot.writtenAt, config.timeZone) : '—',
          })}
        </DeskNotice>
        {english.length > 0 && (
          <DeskTable
            caption={t(`desk.content.kinds.${kind}`)}
            columns={[t('desk.content.columns.title'), t('desk.content.columns.languages')]}
          >
            {english.map((item) => (
              <tr key={item.slug} className="border-t border-slate-200 align-top">
                <td className="px-3 py-2 font-semibold" lang="en">
                  {itemTitle(item.texts, item.slug)}
                </td>
                <td className="px-3 py-2 text-ink-600">
                  {LANGS.filter((l) => item.langs.includes(l))
                    .map((l) => LANGUAGE_NAMES[l])
                    .join(', ')}
                </td>
              </tr>
            ))}
          </DeskTable>
        )}
      </div>
    </>
  )
}
