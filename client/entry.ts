import '@unocss/reset/tailwind.css'
import 'virtual:uno.css'
import './styles/base.css'
import { createElement } from 'react'
import { hydrateRoot } from 'react-dom/client'
import type { Island } from './island'
import { ISLAND_ATTR, PROPS_ATTR } from './island'
import { enhanceDisclosures } from './enhance/disclosure'
import { enhanceLanguageMenu } from './enhance/language'
import { enhanceNavigation, enhanceScrollButtons } from './enhance/navigation'

// Each island is its own chunk, fetched only by pages that render it.
const islands = import.meta.glob<{ default: Island<never> }>('./islands/*.tsx')

async function hydrateIslands() {
  const markers = document.querySelectorAll<HTMLElement>(`[${ISLAND_ATTR}]:not([data-hydrated])`)
  await Promise.all(
    [...markers].map(async (el) => {
      const name = el.getAttribute(ISLAND_ATTR)
      const load = islands[`./islands/${name}.tsx`]
      if (!load) return console.error(`Unknown island "${name}"`)
      const { default: island } = await load()
      const props = JSON.parse(el.getAttribute(PROPS_ATTR) ?? '{}')
      el.setAttribute('data-hydrated', '')
      hydrateRoot(el, createElement(island.island.Component, props))
    }),
  )
}

enhanceLanguageMenu()
enhanceDisclosures()
enhanceNavigation()
enhanceScrollButtons()
hydrateIslands().finally(() => document.body.setAttribute('data-hydrated', ''))
