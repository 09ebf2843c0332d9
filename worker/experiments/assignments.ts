import type { Lang } from '../../client/lib/languages'
import type { MessageKey } from '../i18n/translator'
import { variantOf, type Variant } from './assign'
import type { Live } from './state'
import { targetById, TARGETS } from './targets'
import type { Counted } from './visitor'

/** A running experiment of this page, in this language, and the visitor's variant of it. */
export interface Assignment {
  id: number
  key: MessageKey
  variant: Variant
  /** B's text in the page's language */
  text: string
}

/**
 * The experiments a page takes part in for this visitor: running, on a target this page shows,
 * with B written in the page's language. A visitor who is not counted gets A of each.
 */
export function assignmentsFor(
  path: string,
  lang: Lang,
  live: Live,
  visitor: Counted | undefined,
): Assignment[] {
  const assignments: Assignment[] = []
  for (const experiment of live.running) {
    const target = targetById(experiment.target)
    const text = experiment.texts[lang]
    if (!target || !text || !target.paths.includes(path)) continue
    assignments.push({
      id: experiment.id,
      key: target.key,
      variant: visitor ? variantOf(experiment.seed, experiment.splitB, visitor.id) : 'A',
      text,
    })
  }
  return assignments
}

/**
 * The part of the cache key the variants make (render/cache-key.ts): the experiments showing B,
 * and nothing when all show A, whose page is everyone else's.
 */
export const variantKey = (assignments: readonly Assignment[]) =>
  assignments
    .filter((a) => a.variant === 'B')
    .map((a) => a.id)
    .join('.')

/**
 * The texts this page shows in place of the locale file's: a past winner's, then B where the
 * visitor sees B. Only the page's targets' keys, so a page's copies vary only as their key says.
 */
export function textsFor(
  path: string,
  lang: Lang,
  live: Live,
  assignments: readonly Assignment[],
): Record<string, string> {
  const texts: Record<string, string> = {}
  if (live.texts.size)
    for (const [entry, text] of live.texts) {
      const at = entry.indexOf(' ')
      if (entry.slice(0, at) !== lang) continue
      const key = entry.slice(at + 1)
      if (pageShowsKey(path, key)) texts[key] = text
    }
  for (const a of assignments) if (a.variant === 'B') texts[a.key] = a.text
  return texts
}

const pageShowsKey = (path: string, key: string) =>
  TARGETS.some((t) => t.key === key && t.paths.includes(path))
