import { usePage } from '../render/context'

/**
 * Asks before any tracker loads, or an experiment counts the visitor (UK GDPR / PECR): Accept
 * and Reject look alike, the privacy policy is one click away. Shown only when a tracker is
 * configured or an experiment runs on the page, and nothing was chosen yet;
 * the footer's cookie settings bring it back. A plain form, so it works without JavaScript.
 */
export function ConsentBanner({
  open,
  trackers,
  tests,
}: {
  open: boolean
  /** Google Analytics or the Meta Pixel are configured. */
  trackers: boolean
  /** An experiment runs on the page (experiments/page.ts). */
  tests: boolean
}) {
  const { t } = usePage()
  const button =
    'btn min-w-28 border-2 border-white bg-white px-5 py-2.5 text-sm text-ink-900 hover:bg-slate-100'
  return (
    <section
      id="consent-banner"
      aria-labelledby="consent-title"
      hidden={!open}
      className="fixed inset-x-0 bottom-0 z-50 border-t border-white/10 bg-ink-900 text-white shadow-2xl"
    >
      <form
        method="post"
        action="/api/consent"
        className="container flex flex-col gap-4 py-5 md:flex-row md:items-center md:justify-between"
      >
        <div className="max-w-3xl">
          <h2 id="consent-title" className="m-0 text-base font-bold">
            {t('consent.title')}
          </h2>
          <p className="m-0 mt-1 text-sm text-slate-300">
            {trackers && <>{t('consent.text')} </>}
            {tests && <>{t('consent.text_tests')} </>}
            <a href="/privacy-policy" className="text-white underline">
              {t('consent.privacy')}
            </a>
          </p>
        </div>
        <div className="flex shrink-0 gap-3">
          <button type="submit" name="choice" value="denied" className={button}>
            {t('consent.reject')}
          </button>
          <button type="submit" name="choice" value="granted" className={button}>
            {t('consent.accept')}
          </button>
        </div>
      </form>
    </section>
  )
}
