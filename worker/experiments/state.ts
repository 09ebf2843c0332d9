import { currentGenerations, freshGenerations } from '../content/generations'
import { readLive, type LiveExperiment } from '../db/experiments'

/**
 * The running experiments and the texts past winners made the pages' own, as every isolate keeps
 * them: read again only when the `experiments` generation moves (a start, a pause, a stop, a
 * winner: db/experiment-edits.ts raises it in the change's own batch), which the isolate learns
 * with the content's generations, within seconds (content/generations.ts).
 */
export interface Live {
  running: readonly LiveExperiment[]
  /** `${lang} ${key}` -> the text a winner made the page's own */
  texts: ReadonlyMap<string, string>
}

const NONE: Live = { running: [], texts: new Map() }

let known: { generation: number; live: Live } | undefined

const generationOf = (generations: Record<string, number>) => generations.experiments ?? 0

/** The live experiments for this request (a D1 read only after a change). */
export async function liveExperiments(db: D1Database): Promise<Live> {
  const generation = generationOf(await currentGenerations(db))
  if (known?.generation === generation) return known.live
  try {
    const read = await readLive(db)
    const live: Live = {
      running: read.running,
      texts: new Map(read.texts.map((t) => [`${t.lang} ${t.key}`, t.text])),
    }
    known = { generation, live }
    return live
  } catch (err) {
    // D1 not answering (or not migrated): the last state read, else none (every visitor sees A)
    console.error('experiments unread', err)
    return known?.live ?? NONE
  }
}

/** The live experiments if this isolate knows them as of its fresh generations (no await). */
export function knownLive(): Live | undefined {
  const generations = freshGenerations()
  if (!generations || known?.generation !== generationOf(generations)) return undefined
  return known.live
}
