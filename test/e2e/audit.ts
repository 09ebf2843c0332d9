import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'
import { expect } from 'vitest'

const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
)

/**
 * axe's serious and critical findings on each path, seen with `page`'s cookies (a signed-in
 * staff member's desk), in a context of its own with the CSP bypassed for the audit only.
 */
export async function seriousViolations(page: Page, paths: string[]) {
  const audit = await page
    .context()
    .browser()!
    .newContext({
      baseURL: new URL(page.url()).origin,
      bypassCSP: true,
    })
  await audit.addCookies(await page.context().cookies())
  const tab = await audit.newPage()
  const problems: string[] = []
  for (const path of paths) {
    const res = await tab.goto(path)
    expect(res!.status(), path).toBe(200)
    await tab.addScriptTag({ content: axeSource })
    const violations: { id: string; impact: string }[] = await tab.evaluate(async () => {
      // @ts-expect-error injected above
      const result = await window.axe.run(document, {
        runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'],
      })
      return result.violations
    })
    for (const v of violations)
      if (v.impact === 'serious' || v.impact === 'critical') problems.push(`${path}: ${v.id}`)
  }
  await audit.close()
  return problems
}
