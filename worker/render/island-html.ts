import type { IslandHtml } from '../../client/island'
import { renderToHtml } from './part-html'

/** Islands' HTML by name and props, oldest first; at most MAX (props hold a language's texts). */
const kept = new Map<string, string | Promise<void>>()
const MAX = 64

/**
 * The islands of a page that every anonymous visitor of a language shares (the guide picker,
 * the testimonial carousel, the forms): each isolate renders each island once per props, on
 * the side, and later pages paste its HTML (client/island.tsx). The first page renders it as
 * part of itself. Only for such pages: a visitor's own page may carry their own values in an
 * island's props (a form sent back with its errors), which no memory should hold.
 */
export function islandHtml(waitUntil: (work: Promise<void>) => void): IslandHtml {
  return (name, json, element) => {
    const key = `${name}\n${json}`
    const html = kept.get(key)
    if (typeof html === 'string') return html
    if (!html) {
      const made = renderToHtml(element)
        .then((part) => {
          // still wanted (not evicted meanwhile)
          if (kept.get(key) === made) kept.set(key, part)
        })
        .catch((err: unknown) => {
          kept.delete(key)
          console.error('island html: render failed', name, err)
        })
      kept.set(key, made)
      if (kept.size > MAX) kept.delete(kept.keys().next().value!)
      waitUntil(made)
    }
    return undefined
  }
}
