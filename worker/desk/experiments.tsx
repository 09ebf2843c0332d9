import { Hono, type Context } from 'hono'
import * as v from 'valibot'
import { LANGS, type Lang } from '../../client/lib/languages'
import { formFields } from '../api/forms'
import { askerOf } from '../analytics/report'
import {
  createExperiment,
  editExperiment,
  findExperiment,
  listExperiments,
  moveExperiment,
  PICKABLE,
  pickWinner,
  siteTextsOf,
  type ExperimentFields,
  type Move,
  type Refusal,
} from '../db/experiment-edits'
import { parseTexts, type ExperimentRow } from '../db/experiments'
import type { AppEnv } from '../env'
import { experimentCounts } from '../experiments/results'
import { analyse } from '../experiments/stats'
import { GOALS, TARGETS, targetById, type Target } from '../experiments/targets'
import { createTranslator } from '../i18n/translator'
import { limitBody, sameSiteOnly } from '../middleware/form-guard'
import {
  DeskExperimentChooserPage,
  DeskExperimentFormPage,
  DeskExperimentPage,
  DeskExperimentsPage,
  EXPERIMENT_DONE,
  EXPERIMENT_ERRORS,
  labelOf,
  MAX_TEXT,
  parseFigures,
  type ExperimentError,
  type ExperimentForm,
  type FieldErrors,
  type Figures,
} from './pages/experiments'
import { deskTitle, staffOf } from './staff'

/**
 * /desk/experiments (Owner, Admins and Editors: experiments.manage, route-permissions.ts): A/B
 * tests of the site's texts (docs/experiments.md). A draft is written (the text, the goal, the
 * split, B in each language that takes part), then started, paused, resumed, stopped; its page
 * shows the figures (experiments/results.ts, judged by experiments/stats.ts); picking a winner
 * archives it with them, and a winning B becomes the page's text (site_texts). The changes and
 * their history rows are db/experiment-edits.ts's.
 */
export const deskExperiments = new Hono<AppEnv>()

const head = (c: Context<AppEnv>, title: string) => ({
  title: deskTitle(c, title),
  description: c.var.t('desk.description'),
  workspace: true,
})

const Id = v.pipe(v.string(), v.regex(/^\d{1,12}$/), v.transform(Number))
const idOf = (c: Context<AppEnv>) => {
  const id = v.safeParse(Id, c.req.param('id'))
  return id.success ? id.output : null
}

/** A text as the site has it now in each language: a past winner's, else the locale file's. */
async function currentTexts(db: D1Database, targets: readonly Target[]) {
  const own = await siteTextsOf(
    db,
    targets.map((t) => t.key),
  )
  return (target: Target, lang: Lang) =>
    own.get(`${lang} ${target.key}`) ?? createTranslator(lang)(target.key)
}

const textsOf = async (db: D1Database, target: Target) => {
  const textOf = await currentTexts(db, [target])
  return Object.fromEntries(LANGS.map((l) => [l, textOf(target, l)])) as Record<Lang, string>
}

/** The texts of A an archived experiment kept with its figures, where it kept them. */
function archivedA(results: string | null): Record<Lang, string> | null {
  try {
    const kept = (JSON.parse(results ?? 'null') as { textsA?: unknown } | null)?.textsA
    return kept && typeof kept === 'object' ? (kept as Record<Lang, string>) : null
  } catch {
    return null
  }
}

/**
 * The figures of a started experiment as they stand: its counts since it started and what they
 * say (as of its end, once stopped); null when the analytics cannot be read now.
 */
async function figuresOf(c: Context<AppEnv>, row: ExperimentRow): Promise<Figures | null> {
  if (!row.started_at) return null
  const started = Date.parse(row.started_at)
  try {
    const counts = await experimentCounts(askerOf(c.env), row.id, started)
    if (counts.unavailable) return null
    const end = row.ended_at ? Date.parse(row.ended_at) : Date.now()
    return {
      at: new Date().toISOString(),
      counts,
      analysis: analyse({ A: counts.A, B: counts.B }, row.split_b, started, end),
    }
  } catch (err) {
    console.error('desk: experiment figures unread', err)
    return null
  }
}

// The list

deskExperiments.get('/', async (c) => {
  const db = c.env.DB
  const rows = await listExperiments(db)
  const textOf = await currentTexts(db, TARGETS)
  const lang = c.var.lang
  const figures = await Promise.all(
    rows.map((r) =>
      r.status === 'archived'
        ? parseFigures(r.results)
        : r.status === 'draft'
          ? null
          : figuresOf(c, r),
    ),
  )
  const t = c.var.t
  return c.render(
    <DeskExperimentsPage
      experiments={rows.map((row, i) => {
        const target = targetById(row.target)
        return {
          row,
          label: target ? labelOf(t, target) : row.target,
          textA: target ? textOf(target, lang) : null,
          figures: figures[i],
        }
      })}
      done={EXPERIMENT_DONE.find((d) => d === c.req.query('done'))}
    />,
    head(c, t('desk.nav.experiments')),
  )
})

// Choosing the text, and the form

/**
 * The texts an experiment may test, each with its text now and the experiment that holds it;
 * their links open the form for a new experiment, or, for a draft (`?draft=`), change its text.
 */
async function chooserPage(
  c: Context<AppEnv>,
  options: { draft?: number; error?: ExperimentError; status?: 200 | 400 | 404 } = {},
) {
  const db = c.env.DB
  const [textOf, rows] = await Promise.all([currentTexts(db, TARGETS), listExperiments(db)])
  const holders = new Map(rows.filter((r) => r.status !== 'archived').map((r) => [r.target, r]))
  const t = c.var.t
  c.status(options.status ?? 200)
  return c.render(
    <DeskExperimentChooserPage
      targets={TARGETS.map((target) => ({
        id: target.id,
        label: labelOf(t, target),
        group: target.id.startsWith('service.') ? 'services' : 'home',
        textA: textOf(target, c.var.lang),
        holder: holders.get(target.id)?.id,
      }))}
      draft={options.draft}
      error={options.error}
    />,
    head(c, t('desk_experiments.choose.title')),
  )
}

async function formPage(
  c: Context<AppEnv>,
  target: Target,
  form: ExperimentForm,
  options: {
    experiment?: ExperimentRow
    errors?: FieldErrors
    holder?: number
    done?: (typeof EXPERIMENT_DONE)[number]
    error?: ExperimentError
    status?: 200 | 409 | 422
  } = {},
) {
  const t = c.var.t
  c.status(options.status ?? 200)
  return c.render(
    <DeskExperimentFormPage
      experiment={options.experiment}
      target={{ id: target.id, label: labelOf(t, target) }}
      textsA={await textsOf(c.env.DB, target)}
      form={form}
      errors={options.errors ?? {}}
      holder={options.holder}
      done={options.done}
      error={options.error}
    />,
    head(
      c,
      options.experiment
        ? t('desk_experiments.edit_title', { text: labelOf(t, target) })
        : t('desk_experiments.new_title'),
    ),
  )
}

const emptyTexts = () => Object.fromEntries(LANGS.map((l) => [l, ''])) as Record<Lang, string>

/** A draft's form as saved. */
const formOf = (row: ExperimentRow, target = row.target): ExperimentForm => ({
  target,
  goal: row.goal,
  split: String(row.split_b),
  texts: { ...emptyTexts(), ...parseTexts(row.texts) },
})

deskExperiments.get('/new', async (c) => {
  const target = targetById(c.req.query('target') ?? '')
  const draft = v.safeParse(Id, c.req.query('draft'))
  if (!target) return chooserPage(c, draft.success ? { draft: draft.output } : {})
  return formPage(c, target, {
    target: target.id,
    goal: 'any_lead',
    split: '50',
    texts: emptyTexts(),
  })
})

/** A text of B as posted: its spaces and line breaks one space each (it is one line of a page). */
const Text = v.pipe(
  v.optional(v.string(), ''),
  v.transform((s) => s.replace(/\s+/g, ' ').trim()),
  v.maxLength(MAX_TEXT, 'too_long'),
)

const Form = v.object({
  target: v.picklist(
    TARGETS.map((t) => t.id),
    'invalid',
  ),
  goal: v.picklist(GOALS, 'invalid'),
  split: v.pipe(
    v.string('range'),
    v.trim(),
    v.regex(/^\d{1,2}$/, 'range'),
    v.transform(Number),
    v.minValue(1, 'range'),
    v.maxValue(99, 'range'),
  ),
  ...(Object.fromEntries(LANGS.map((l) => [`text_${l}`, Text])) as Record<
    `text_${Lang}`,
    typeof Text
  >),
})

type FormOutcome =
  | { typed: ExperimentForm; target: Target; fields: ExperimentFields }
  | { typed: ExperimentForm; target: Target | undefined; errors: FieldErrors }

/** The form as posted: what was typed (to show it again), and the fields or each one's problem. */
async function readForm(c: Context<AppEnv>): Promise<FormOutcome> {
  const posted = await formFields(c)
  const field = (name: string) => (typeof posted[name] === 'string' ? posted[name] : '')
  const typed: ExperimentForm = {
    target: field('target').slice(0, 100),
    goal: field('goal').slice(0, 30),
    split: field('split').slice(0, 10),
    texts: Object.fromEntries(
      LANGS.map((l) => [l, field(`text_${l}`).slice(0, MAX_TEXT * 2)]),
    ) as Record<Lang, string>,
  }
  const target = targetById(typed.target)
  const parsed = v.safeParse(Form, posted)
  if (!parsed.success) {
    const errors: FieldErrors = {}
    for (const issue of parsed.issues) {
      const name = String(issue.path?.[0]?.key ?? 'target') as keyof FieldErrors
      errors[name] ??=
        issue.message === 'too_long' ? 'too_long' : name === 'split' ? 'range' : 'invalid'
    }
    return { typed, target, errors }
  }
  const o = parsed.output
  return {
    typed,
    target: targetById(o.target)!,
    fields: {
      target: o.target,
      goal: o.goal,
      splitB: o.split,
      texts: Object.fromEntries(
        LANGS.flatMap((l) => (o[`text_${l}`] ? [[l, o[`text_${l}`]]] : [])),
      ),
    },
  }
}

deskExperiments.post('/', sameSiteOnly(), limitBody(32_768), async (c) => {
  const form = await readForm(c)
  if (!form.target) return chooserPage(c, { error: 'target', status: 400 })
  if ('errors' in form)
    return formPage(c, form.target, form.typed, { errors: form.errors, status: 422 })
  const made = await createExperiment(c.env.DB, staffOf(c), form.fields)
  if (!made.ok)
    return formPage(c, form.target, form.typed, {
      errors: { target: 'taken' },
      holder: made.holder ?? undefined,
      status: 409,
    })
  return c.redirect(`/desk/experiments/${made.id}?done=created`, 303)
})

// One experiment

const back = (c: Context<AppEnv>, id: number, outcome: { done: string } | { error: string }) =>
  c.redirect(`/desk/experiments/${id}?${new URLSearchParams(outcome)}`, 303)

/** What a refused change says: gone, or what already happened to it. */
const refused = (c: Context<AppEnv>, id: number, refusal: Refusal) =>
  refusal.reason === 'not_found'
    ? c.redirect('/desk/experiments?error=not_found', 303)
    : back(c, id, {
        error:
          refusal.reason === 'moved'
            ? `already_${refusal.status}`
            : refusal.reason === 'no_texts'
              ? 'no_texts'
              : 'invalid',
      })

deskExperiments.get('/:id{[0-9]+}', async (c) => {
  const id = idOf(c)
  const db = c.env.DB
  const row = id === null ? null : await findExperiment(db, id)
  if (!row) return c.notFound()
  const done = EXPERIMENT_DONE.find((d) => d === c.req.query('done'))
  const error = EXPERIMENT_ERRORS.find((e) => e === c.req.query('error'))
  if (row.status === 'draft') {
    // (?target=: the draft's text changed on the chooser, not saved yet)
    const target = targetById(c.req.query('target') ?? '') ?? targetById(row.target)
    if (!target) return chooserPage(c, { draft: row.id })
    return formPage(c, target, formOf(row, target.id), { experiment: row, done, error })
  }
  const target = targetById(row.target)
  const t = c.var.t
  const figures = row.status === 'archived' ? parseFigures(row.results) : await figuresOf(c, row)
  return c.render(
    <DeskExperimentPage
      experiment={row}
      label={target ? labelOf(t, target) : row.target}
      textsA={
        // an archive shows A as it was when the winner was picked (a winning B is A since)
        (row.status === 'archived' ? archivedA(row.results) : null) ??
        (target ? await textsOf(db, target) : null)
      }
      figures={figures}
      done={done}
      error={error}
    />,
    head(c, target ? labelOf(t, target) : row.target),
  )
})

deskExperiments.post('/:id{[0-9]+}', sameSiteOnly(), limitBody(32_768), async (c) => {
  const id = idOf(c)
  const db = c.env.DB
  const row = id === null ? null : await findExperiment(db, id)
  if (!row || id === null) return c.redirect('/desk/experiments?error=not_found', 303)
  if (row.status !== 'draft') return back(c, id, { error: `already_${row.status}` })
  const form = await readForm(c)
  if (!form.target) return chooserPage(c, { draft: id, error: 'target', status: 400 })
  if ('errors' in form)
    return formPage(c, form.target, form.typed, {
      experiment: row,
      errors: form.errors,
      status: 422,
    })
  const edited = await editExperiment(db, staffOf(c), id, form.fields)
  if (edited.ok) return back(c, id, { done: 'saved' })
  if (edited.reason === 'taken')
    return formPage(c, form.target, form.typed, {
      experiment: row,
      errors: { target: 'taken' },
      holder: edited.holder ?? undefined,
      status: 409,
    })
  return refused(c, id, edited)
})

const MOVE_DONE = { start: 'started', resume: 'resumed', pause: 'paused', stop: 'stopped' } as const

for (const move of Object.keys(MOVE_DONE) as Move[])
  deskExperiments.post(`/:id{[0-9]+}/${move}`, sameSiteOnly(), limitBody(1024), async (c) => {
    const id = idOf(c)
    if (id === null) return c.redirect('/desk/experiments?error=not_found', 303)
    const moved = await moveExperiment(c.env.DB, staffOf(c), id, move)
    return moved.ok ? back(c, id, { done: MOVE_DONE[move] }) : refused(c, id, moved)
  })

const Winner = v.object({ winner: v.picklist(['A', 'B']) })

deskExperiments.post('/:id{[0-9]+}/winner', sameSiteOnly(), limitBody(1024), async (c) => {
  const id = idOf(c)
  const db = c.env.DB
  const row = id === null ? null : await findExperiment(db, id)
  if (!row || id === null) return c.redirect('/desk/experiments?error=not_found', 303)
  const input = v.safeParse(Winner, await formFields(c))
  if (!input.success) return back(c, id, { error: 'invalid' })
  if (!(PICKABLE as readonly string[]).includes(row.status))
    return back(c, id, { error: `already_${row.status}` })
  const target = targetById(row.target)
  if (!target) return back(c, id, { error: 'invalid' })
  // archived with its figures, or not at all: they are what the archive is read for
  const figures = await figuresOf(c, row)
  if (!figures) return back(c, id, { error: 'unavailable' })
  // A's texts kept with the figures: once B wins, the site's A is B
  const kept = { ...figures, textsA: await textsOf(db, target) }
  const picked = await pickWinner(db, staffOf(c), row, input.output.winner, target.key, kept)
  return picked.ok ? back(c, id, { done: 'picked' }) : refused(c, id, picked)
})
