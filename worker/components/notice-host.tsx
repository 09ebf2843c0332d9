import { usePage } from '../render/context'

/**
 * Live regions for notices and toasts, filled by `client/enhance/notices.ts`. A modal dialog makes the
 * rest of the page inert (and silent to screen readers), so each dialog carries its own.
 */
export function NoticeHost() {
  const { t } = usePage()
  return (
    <div data-dismiss-label={t('notices.dismiss')} className="notices notice-host">
      <div role="status" aria-live="polite" />
      <div role="alert" aria-live="assertive" />
      {/* the second mechanism: up to three stacked toasts (client/lib/notices.ts) */}
      <div
        className="toasts"
        data-offline-title={t('notices.offline_title')}
        data-offline-text={t('notices.offline_text')}
        data-online-title={t('notices.online_title')}
        data-online-text={t('notices.online_text')}
      >
        <div role="status" aria-live="polite" />
        <div role="alert" aria-live="assertive" />
      </div>
    </div>
  )
}
