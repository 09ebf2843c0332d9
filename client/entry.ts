import '@unocss/reset/tailwind.css'
import 'virtual:uno.css'
import './styles/base.css'
import type { Island } from './island'
import { HYDRATE_ATTR, ISLAND_ATTR, PROPS_ATTR } from './island-markup'
import { enhanceBooking } from './enhance/booking'
import { enhanceBusyForms } from './enhance/busy-forms'
import { enhanceChallengeForms } from './enhance/challenge'
import { enhanceConsent } from './enhance/consent'
import { enhanceDialogs } from './enhance/dialogs'
import { enhanceDisclosures } from './enhance/disclosure'
import { enhanceEvents } from './enhance/events'
import { enhanceLanguageMenu } from './enhance/language'
import { enhanceBackLinks, enhanceNavigation, enhanceScrollButtons } from './enhance/navigation'
import { enhanceNotices } from './enhance/notices'
import { enhanceSession } from './enhance/session'
import { enhanceVitals } from './enhance/vitals'
import { enhanceWelcomePopup } from './enhance/welcome'

// Each island is its own chunk, fetched only by pages that render it; React itself is fetched
// with the first island that hydrates, so a page whose islands are below the fold starts with
// a few kilobytes of script.
const islands = import.meta.glob<{ default: Island<never> }>('./islands/*.tsx')

async function hydrate(el: HTMLElement) {
  if (el.hasAttribute('data-hydrated')) return
  el.setAttribute('data-hydrated', '')
  const name = el.getAttribute(ISLAND_ATTR)
  const load = islands[`./islands/${name}.tsx`]
  if (!load) return console.error(`Unknown island "${name}"`)
  const [{ default: island }, { createElement }, { hydrateRoot }, { IslandRoot }] =
    await Promise.all([
      load(),
      import('react'),
      import('react-dom/client'),
      import('./lib/typed-value'),
    ])
  const props = JSON.parse(el.getAttribute(PROPS_ATTR) ?? '{}')
  // the marker, for an island that reads what was chosen in it before it hydrated
  hydrateRoot(
    el,
    createElement(
      IslandRoot.Provider,
      { value: el },
      createElement(island.island.Component, props),
    ),
  )
  el.setAttribute('data-hydrated', 'done')
}

/** Islands hydrate when they come near the viewport, or at load / when idle if they ask to. */
function scheduleIslands() {
  const markers = [...document.querySelectorAll<HTMLElement>(`[${ISLAND_ATTR}]`)]
  const nearView = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue
        nearView.unobserve(entry.target)
        hydrate(entry.target.closest<HTMLElement>(`[${ISLAND_ATTR}]`)!)
      }
    },
    { rootMargin: '300px' },
  )
  const idle = window.requestIdleCallback ?? ((fn: () => void) => setTimeout(fn, 200))
  const eager: Promise<void>[] = []
  for (const el of markers) {
    const when = el.getAttribute(HYDRATE_ATTR)
    if (when === 'load') eager.push(hydrate(el))
    else if (when === 'idle') idle(() => hydrate(el))
    // display: contents markers have no box of their own: watch their first child.
    else nearView.observe(el.firstElementChild ?? el)
  }
  return Promise.all(eager)
}

/** Lets the browser handle input and paint between two pieces of start-up work. */
const yieldToMain = (): Promise<void> =>
  (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler?.yield?.() ??
  new Promise((resolve) => setTimeout(resolve, 0))

// Every enhancement runs in a task of its own: together they make one long task on a slow
// phone, and a long task at load delays the first tap (Total Blocking Time).
;(async () => {
  for (const enhance of [
    enhanceLanguageMenu,
    enhanceDisclosures,
    enhanceNavigation,
    enhanceScrollButtons,
    enhanceBackLinks,
    enhanceNotices,
    enhanceDialogs,
    enhanceBusyForms,
    enhanceBooking,
    enhanceChallengeForms,
    enhanceEvents,
    enhanceConsent,
    enhanceSession,
    enhanceWelcomePopup,
    enhanceVitals,
  ]) {
    enhance()
    await yieldToMain()
  }
  await scheduleIslands()
})().finally(() => document.body.setAttribute('data-hydrated', ''))
