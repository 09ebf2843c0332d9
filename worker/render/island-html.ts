import type { IslandHtml } from '../../client/island'
import { pastedHtml, type PartStore } from './part-html'

/** Islands' HTML by name and props, at most MAX (props hold a language's texts). */
const kept: PartStore = new Map()
const MAX = 64

/**
 * The islands of a page that every anonymous visitor of a language shares (the guide picker,
 * the testimonial carousel, the forms): each isolate renders each island once per props, on
 * the side, and later pages paste its HTML (client/island.tsx). The first page renders it as
 * part of itself. Only for such pages: a visitor's own page may carry their own values in an
 * island's props (a form sent back with its errors), which no memory should hold.
 */
export const islandHtml =
  (waitUntil: (work: Promise<void>) => void): IslandHtml =>
  (name, json, part) =>
    pastedHtml(kept, `${name}\n${json}`, part, waitUntil, MAX)
