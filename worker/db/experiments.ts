import type { Lang } from '../../client/lib/languages'
import type { Goal } from '../experiments/targets'

/**
 * The experiments as the pages need them (experiments/state.ts): the running ones and the texts
 * past winners made the pages' own. The desk's reads and changes are in db/experiment-edits.ts.
 */

export type ExperimentStatus = 'draft' | 'running' | 'paused' | 'stopped' | 'archived'

export interface ExperimentRow {
  id: number
  target: string
  seed: string
  split_b: number
  goal: Goal
  /** JSON: language -> B */
  texts: string
  status: ExperimentStatus
  winner: 'A' | 'B' | null
  results: string | null
  created_by: string
  created_at: string
  started_at: string | null
  ended_at: string | null
  updated_at: string
}

/** A running experiment, its B texts parsed. */
export interface LiveExperiment {
  id: number
  target: string
  seed: string
  splitB: number
  goal: Goal
  texts: Partial<Record<Lang, string>>
}

export interface SiteText {
  key: string
  lang: string
  text: string
}

/** What every page render needs: one batch, read when the `experiments` generation moves. */
export async function readLive(db: D1Database | D1DatabaseSession) {
  const [running, texts] = await db.batch([
    db.prepare(
      "SELECT id, target, seed, split_b, goal, texts FROM experiments WHERE status = 'running' ORDER BY id",
    ),
    db.prepare('SELECT key, lang, text FROM site_texts'),
  ])
  return {
    running: (
      running.results as Pick<
        ExperimentRow,
        'id' | 'target' | 'seed' | 'split_b' | 'goal' | 'texts'
      >[]
    ).map((r): LiveExperiment => ({
      id: r.id,
      target: r.target,
      seed: r.seed,
      splitB: r.split_b,
      goal: r.goal,
      texts: parseTexts(r.texts),
    })),
    texts: texts.results as unknown as SiteText[],
  }
}

/** B's texts as stored; anything but an object of strings reads as none. */
export function parseTexts(json: string): Partial<Record<Lang, string>> {
  try {
    const value = JSON.parse(json) as unknown
    if (!value || typeof value !== 'object' || Array.isArray(value)) return {}
    return Object.fromEntries(
      Object.entries(value).filter(([, text]) => typeof text === 'string' && text.trim() !== ''),
    ) as Partial<Record<Lang, string>>
  } catch {
    return {}
  }
}
