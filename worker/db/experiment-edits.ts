import { LANGS, type Lang } from '../../client/lib/languages'
import type { Goal } from '../experiments/targets'
import { bumpGeneration } from './content'
import { audit } from './desk'
import { parseTexts, type ExperimentRow, type ExperimentStatus } from './experiments'

/**
 * The desk's reads and changes of experiments (desk/experiments.tsx; migrations/0038). A draft
 * is written and changed freely; from its start on, each change moves it from the status the
 * page showed to the next (a double press, a second tab: the first changes it, the other finds
 * it moved and is told what happened), writes the history in its batch, and raises the
 * `experiments` generation there too, so the pages' cached copies re-key (experiments/state.ts).
 */

/** Whoever made the change, as the history keeps them. */
export interface Actor {
  id: string
  email: string
}

/** What the desk's form sets on a draft. */
export interface ExperimentFields {
  target: string
  goal: Goal
  /** percent of counted visitors shown B, 1 to 99 */
  splitB: number
  /** B per language; a language left out keeps A */
  texts: Partial<Record<Lang, string>>
}

/** The experiments, the live ones (every status but archived) first, newest first in each. */
export async function listExperiments(db: D1Database) {
  const { results } = await db
    .prepare(
      `SELECT * FROM experiments
       ORDER BY status = 'archived', CASE status WHEN 'archived' THEN ended_at END DESC, id DESC
       LIMIT 500`,
    )
    .all<ExperimentRow>()
  return results
}

export const findExperiment = (db: D1Database, id: number) =>
  db.prepare('SELECT * FROM experiments WHERE id = ?').bind(id).first<ExperimentRow>()

/** The experiment that holds a text now (one at a time: migrations/0038's unique index). */
export const liveOnTarget = (db: D1Database, target: string) =>
  db
    .prepare("SELECT id, status FROM experiments WHERE target = ? AND status != 'archived'")
    .bind(target)
    .first<{ id: number; status: ExperimentStatus }>()

/** The texts past winners made the pages' own, for some locale keys: `${lang} ${key}` -> text. */
export async function siteTextsOf(db: D1Database, keys: readonly string[]) {
  const { results } = await db
    .prepare('SELECT key, lang, text FROM site_texts WHERE key IN (SELECT value FROM json_each(?))')
    .bind(JSON.stringify([...new Set(keys)]))
    .all<{ key: string; lang: string; text: string }>()
  return new Map(results.map((r) => [`${r.lang} ${r.key}`, r.text]))
}

/** B's texts as stored: the languages in the site's order, none empty. */
const textsJson = (texts: ExperimentFields['texts']) =>
  JSON.stringify(
    Object.fromEntries(LANGS.flatMap((l) => (texts[l]?.trim() ? [[l, texts[l]!.trim()]] : []))),
  )

/** The languages B is written in, for the history. */
const languagesOf = (texts: ExperimentFields['texts']) => LANGS.filter((l) => texts[l]?.trim())

/** A seed for the variant's hash (experiments/assign.ts): 128 random bits, as hex. */
function newSeed() {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')
}

/** The database's refusal of a second live experiment on one text (a race past our check). */
const isTargetTaken = (err: unknown) =>
  /UNIQUE constraint failed: experiments\.target/.test(String(err))

const now = () => new Date().toISOString()

/** The text is another experiment's: which one. */
export interface Taken {
  ok: false
  reason: 'taken'
  holder: number | null
}

/** A new draft; refused while another experiment holds the text. */
export async function createExperiment(
  db: D1Database,
  actor: Actor,
  fields: ExperimentFields,
): Promise<{ ok: true; id: number } | Taken> {
  const seed = newSeed()
  const texts = textsJson(fields.texts)
  try {
    const [inserted] = await db.batch<{ id: number }>([
      db
        .prepare(
          `INSERT INTO experiments (target, seed, split_b, goal, texts, created_by)
           SELECT ?, ?, ?, ?, ?, ?
           WHERE NOT EXISTS (SELECT 1 FROM experiments WHERE target = ? AND status != 'archived')
           RETURNING id`,
        )
        .bind(fields.target, seed, fields.splitB, fields.goal, texts, actor.email, fields.target),
      // the history's row names the experiment just made (found by its seed, which it alone has)
      db
        .prepare(
          `INSERT INTO desk_audit (actor_id, actor_email, action, target, detail)
           SELECT ?, ?, 'experiment.create', 'experiment/' || id, ?
           FROM experiments WHERE seed = ?`,
        )
        .bind(
          actor.id,
          actor.email,
          JSON.stringify({ text: fields.target, languages: languagesOf(fields.texts) }),
          seed,
        ),
    ])
    const id = inserted.results[0]?.id
    if (id !== undefined) return { ok: true, id }
  } catch (err) {
    if (!isTargetTaken(err)) throw err
  }
  return { ok: false, reason: 'taken', holder: (await liveOnTarget(db, fields.target))?.id ?? null }
}

/** What a change that did not happen found instead. */
export type Refusal =
  | { ok: false; reason: 'not_found' }
  | { ok: false; reason: 'moved'; status: ExperimentStatus }
  | { ok: false; reason: 'no_texts' }
  | Taken

/** Why a change to `id` did nothing: gone, or no longer in the status it expected. */
async function refusalOf(db: D1Database, id: number): Promise<Refusal> {
  const row = await findExperiment(db, id)
  return row
    ? { ok: false, reason: 'moved', status: row.status }
    : { ok: false, reason: 'not_found' }
}

/** A draft's settings and texts changed; only while it is a draft. */
export async function editExperiment(
  db: D1Database,
  actor: Actor,
  id: number,
  fields: ExperimentFields,
): Promise<{ ok: true } | Refusal> {
  try {
    const [updated] = await db.batch([
      db
        .prepare(
          `UPDATE experiments SET target = ?, goal = ?, split_b = ?, texts = ?, updated_at = ?
           WHERE id = ? AND status = 'draft' AND NOT EXISTS (
             SELECT 1 FROM experiments o WHERE o.target = ? AND o.status != 'archived' AND o.id != ?)
           RETURNING id`,
        )
        .bind(
          fields.target,
          fields.goal,
          fields.splitB,
          textsJson(fields.texts),
          now(),
          id,
          fields.target,
          id,
        ),
      audit(
        db,
        actor,
        'experiment.update',
        `experiment/${id}`,
        {
          text: fields.target,
          goal: fields.goal,
          split: fields.splitB,
          languages: languagesOf(fields.texts),
        },
        true,
      ),
    ])
    if (updated.results.length) return { ok: true }
  } catch (err) {
    if (!isTargetTaken(err)) throw err
  }
  const holder = await liveOnTarget(db, fields.target)
  if (holder && holder.id !== id) return { ok: false, reason: 'taken', holder: holder.id }
  return refusalOf(db, id)
}

/** The moves of a started experiment: from which statuses, to which. */
export const MOVES = {
  start: { from: ['draft'], to: 'running' },
  resume: { from: ['paused'], to: 'running' },
  pause: { from: ['running'], to: 'paused' },
  stop: { from: ['running', 'paused'], to: 'stopped' },
} as const satisfies Record<string, { from: ExperimentStatus[]; to: ExperimentStatus }>
export type Move = keyof typeof MOVES

const statusesSql = (statuses: readonly ExperimentStatus[]) =>
  statuses.map((s) => `'${s}'`).join(', ')

/**
 * Started, paused, resumed or stopped: only from the status the move expects (started once: a
 * start needs B in at least one language). Its history row and the pages' new generation in
 * the same batch.
 */
export async function moveExperiment(
  db: D1Database,
  actor: Actor,
  id: number,
  move: Move,
): Promise<{ ok: true } | Refusal> {
  const { from, to } = MOVES[move]
  const at = now()
  const [updated] = await db.batch([
    db
      .prepare(
        `UPDATE experiments SET status = ?, updated_at = ?,
           started_at = CASE WHEN ? = 'running' THEN coalesce(started_at, ?) ELSE started_at END,
           ended_at = CASE WHEN ? = 'stopped' THEN ? ELSE ended_at END
         WHERE id = ? AND status IN (${statusesSql(from)})
           AND EXISTS (SELECT 1 FROM json_each(experiments.texts) WHERE trim(value) != '')
         RETURNING id`,
      )
      .bind(to, at, to, at, to, at, id),
    audit(db, actor, `experiment.${move}`, `experiment/${id}`, {}, true),
    bumpGeneration(db, 'experiments', at),
  ])
  if (updated.results.length) return { ok: true }
  const row = await findExperiment(db, id)
  if (!row) return { ok: false, reason: 'not_found' }
  if (
    (from as readonly string[]).includes(row.status) &&
    !languagesOf(parseTexts(row.texts)).length
  )
    return { ok: false, reason: 'no_texts' }
  return { ok: false, reason: 'moved', status: row.status }
}

/** The statuses a winner may be picked from: started, not yet archived. */
export const PICKABLE = ['running', 'paused', 'stopped'] as const satisfies ExperimentStatus[]

/**
 * The winner picked, and the experiment archived with the figures as they stand (`results`,
 * JSON). B's text becomes the page's text (site_texts, for every visitor) in each language it
 * was written in; A leaves the page as it is. Once: from a started, unarchived experiment only.
 */
export async function pickWinner(
  db: D1Database,
  actor: Actor,
  row: Pick<ExperimentRow, 'id' | 'texts'>,
  winner: 'A' | 'B',
  key: string,
  results: unknown,
): Promise<{ ok: true } | Refusal> {
  const at = now()
  const languages = winner === 'B' ? languagesOf(parseTexts(row.texts)) : []
  const [, updated] = await db.batch([
    // (first, while the experiment is still in a status a winner may be picked from)
    db
      .prepare(
        `INSERT INTO site_texts (key, lang, text, experiment_id, updated_at)
         SELECT ?, j.key, trim(j.value), e.id, ?
         FROM experiments e, json_each(e.texts) j
         WHERE e.id = ? AND ? = 'B' AND e.status IN (${statusesSql(PICKABLE)})
           AND j.key IN (SELECT value FROM json_each(?)) AND trim(j.value) != ''
         ON CONFLICT (key, lang) DO UPDATE SET text = excluded.text,
           experiment_id = excluded.experiment_id, updated_at = excluded.updated_at`,
      )
      .bind(key, at, row.id, winner, JSON.stringify(LANGS)),
    db
      .prepare(
        `UPDATE experiments SET status = 'archived', winner = ?, results = ?, updated_at = ?,
           ended_at = coalesce(ended_at, ?)
         WHERE id = ? AND status IN (${statusesSql(PICKABLE)}) RETURNING id`,
      )
      .bind(winner, JSON.stringify(results), at, at, row.id),
    audit(db, actor, 'experiment.winner', `experiment/${row.id}`, { winner, languages }, true),
    bumpGeneration(db, 'experiments', at),
  ])
  if (updated.results.length) return { ok: true }
  return refusalOf(db, row.id)
}
