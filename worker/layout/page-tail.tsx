import { useRequestContext } from '@hono/react-renderer'
import type { Context } from 'hono'
import { ConsentBanner } from '../components/consent-banner'
import { Footer } from '../components/footer'
import { BookingDialog, FloatingActions } from '../components/overlays'
import { WelcomePopup } from '../components/welcome-popup'
import { isKept, type SiteConfig } from '../config'
import type { AppEnv } from '../env'
import type { Consent } from '../render/consent'
import { PartContext } from '../render/context'
import { pastedHtml, waitUntilOf, type PartStore } from '../render/part-html'

/**
 * What follows `<main>` on every page of the site's layout: the footer, the WhatsApp and
 * consultation buttons, the booking dialog, the welcome popup and the consent banner. It
 * depends on the language, the settings, the popup and buttons (`quiet`), the consent, whether
 * the page may have trackers, and the year, never on the page or the visitor, and it is some
 * 40% of a page's render (npm run bench, Node: /contact 3.5 → 1.3 ms without it). So each
 * isolate renders it once per such variant and pastes the HTML into later pages; the first page
 * renders it as part of itself.
 */
interface TailProps {
  quiet: boolean
  consent: Consent
  /** Trackers are configured and this page may have them (not an e-mailed secret's page). */
  trackers: boolean
  /** An experiment runs on this page (experiments/page.ts), which counts only those who agree. */
  tests: boolean
}

function Tail({ quiet, consent, trackers, tests }: TailProps) {
  return (
    <>
      <Footer consentSettings={trackers || tests} />
      {/* an errand page's buttons (cancel a booking, confirm) are never under them; the
          footer keeps WhatsApp and the booking link */}
      {!quiet && <FloatingActions />}
      <BookingDialog />
      {!quiet && <WelcomePopup />}
      {(trackers || tests) && (
        <ConsentBanner open={consent === 'unset'} trackers={trackers} tests={tests} />
      )}
    </>
  )
}

/** Per settings object (one per isolate and origin, config.ts), the HTML of each variant. */
const tails = new WeakMap<SiteConfig, PartStore>()

export function PageTail(props: TailProps) {
  const c = useRequestContext() as unknown as Context<AppEnv>
  const config = c.get('config')
  // settings readConfig does not keep (past its count of origins) are new on every request:
  // nothing rendered for them would be read again
  if (!isKept(config))
    return (
      <div className="contents">
        <Tail {...props} />
      </div>
    )
  const { quiet, consent, trackers, tests } = props
  // the footer's copyright year is the only thing of the clock in it
  // oxlint-disable-next-line react/purity -- rendered on the server only, once per request
  const key = `${c.get('lang')}.${quiet}.${consent}.${trackers}.${tests}.${new Date().getUTCFullYear()}`
  let variants = tails.get(config)
  if (!variants) tails.set(config, (variants = new Map()))
  const html = pastedHtml(
    variants,
    key,
    () => (
      <PartContext.Provider value={c}>
        <Tail {...props} />
      </PartContext.Provider>
    ),
    waitUntilOf(c),
  )
  // the same element either way: the HTML as React would write it, in a wrapper that boxes nothing
  if (html !== undefined)
    return <div className="contents" dangerouslySetInnerHTML={{ __html: html }} />
  return (
    <div className="contents">
      <Tail {...props} />
    </div>
  )
}
