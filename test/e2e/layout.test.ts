import { describe, expect, it } from 'vitest'
import { DESKTOP, useBrowser } from './browser'
import { inLang, PAGE_PATHS } from '../routes'

const { open } = useBrowser()

/**
 * What of `main` reaches past the header's content edges: every box that holds text or
 * content (cards, grids, lists, paragraphs, headings, pictures, buttons), measured where it is
 * visible (clipped by scrolling or hidden-overflow ancestors, as a carousel's far slides are).
 * Full-width section backgrounds, and the container boxes whose padding makes the edges, are
 * not content. Decorative (aria-hidden) pieces may overhang.
 */
function outsideTheGrid() {
  const header = document.querySelector('header .container')!
  const style = getComputedStyle(header)
  const box = header.getBoundingClientRect()
  const left = box.left + parseFloat(style.paddingLeft)
  const right = box.right - parseFloat(style.paddingRight)
  const viewport = document.documentElement.clientWidth
  const found: string[] = []
  for (const el of document.querySelectorAll<HTMLElement>('main *')) {
    if (el.closest('[aria-hidden="true"], template, dialog, .sr-only')) continue
    if (el.classList.contains('container')) continue
    const r = el.getBoundingClientRect()
    if (!r.width || !r.height) continue
    // a section's background band spans the page: not a block of content
    if (r.left <= 0.5 && r.right >= viewport - 0.5) continue
    let visLeft = r.left
    let visRight = r.right
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const s = getComputedStyle(a)
      if (s.overflowX !== 'visible' || s.contain.includes('paint')) {
        const c = a.getBoundingClientRect()
        visLeft = Math.max(visLeft, c.left)
        visRight = Math.min(visRight, c.right)
      }
    }
    if (visRight - visLeft < 1) continue
    if (visLeft < left - 0.5 || visRight > right + 0.5) {
      const name = `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}.${[...el.classList].slice(0, 3).join('.')}`
      found.push(`${name} ${Math.round(visLeft)}–${Math.round(visRight)}`)
    }
  }
  return { edges: [Math.round(left), Math.round(right)], found: found.slice(0, 8) }
}

describe('page grid at 1366 px', () => {
  for (const lang of ['en', 'ar'])
    it(`keeps every card, grid and text block of main within the header's edges (${lang})`, async () => {
      const page = await open(inLang('/', lang), { viewport: DESKTOP })
      const problems: string[] = []
      for (const path of PAGE_PATHS) {
        await page.goto(inLang(path, lang))
        const { edges, found } = await page.evaluate(outsideTheGrid)
        // the header's content runs from 131 to 1235 at this width
        expect(edges).toEqual([131, 1235])
        for (const f of found) problems.push(`${path}: ${f}`)
      }
      expect(problems).toEqual([])
      await page.context().close()
    })
})
