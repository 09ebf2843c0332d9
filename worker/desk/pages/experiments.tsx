import type { ReactNode } from 'react'
import { inputClass, labelClass } from '../../../client/components/field'
import { dirOf, isLang, LANGS, type Lang } from '../../../client/lib/languages'
import type { ExperimentRow, ExperimentStatus } from '../../db/experiments'
import { PICKABLE, type Move } from '../../db/experiment-edits'
import type { ExperimentCounts } from '../../experiments/results'
import {
  MIN_CONVERSIONS,
  MIN_DAYS,
  rateInterval,
  type Analysis,
  type Arm,
  type RateInterval,
} from '../../experiments/stats'
import { GOALS, isGoal, type Target } from '../../experiments/targets'
import { formatDateTime, formatNumber, formatPercent, languageName } from '../../i18n/format'
import type { Translator } from '../../i18n/translator'
import { usePage } from '../../render/context'
import { DeskCardCell, DeskCardTable, DeskHeader, DeskNotice } from './leads'

/** The longest text of B, in characters (a headline, a subtitle, a button). */
export const MAX_TEXT = 300

/** What the experiments' pages say was done, and what they refused (desk/experiments.tsx). */
export const EXPERIMENT_DONE = [
  'created',
  'saved',
  'started',
  'resumed',
  'paused',
  'stopped',
  'picked',
] as const
export const EXPERIMENT_ERRORS = [
  'not_found',
  'invalid',
  'target',
  'no_texts',
  'unavailable',
  'already_draft',
  'already_running',
  'already_paused',
  'already_stopped',
  'already_archived',
] as const
export type ExperimentError = (typeof EXPERIMENT_ERRORS)[number]

/** The form as typed, kept when it is refused. */
export interface ExperimentForm {
  target: string
  goal: string
  split: string
  texts: Record<Lang, string>
}

/** Each field's problem (desk_experiments.field_errors.<problem>). */
export type FieldErrors = Partial<
  Record<'target' | 'goal' | 'split' | `text_${Lang}`, 'invalid' | 'range' | 'too_long' | 'taken'>
>

/** The figures of an experiment at one moment: counted, and judged (kept when it is archived). */
export interface Figures {
  at: string
  counts: ExperimentCounts
  analysis: Analysis
}

const isArm = (a: unknown): a is Arm =>
  !!a &&
  typeof a === 'object' &&
  typeof (a as Arm).visitors === 'number' &&
  typeof (a as Arm).conversions === 'number'

/** An archived experiment's figures as stored; null when there are none, or none readable. */
export function parseFigures(json: string | null): Figures | null {
  if (!json) return null
  try {
    const f = JSON.parse(json) as Figures
    const ok =
      typeof f?.at === 'string' &&
      isArm(f.counts?.A) &&
      isArm(f.counts?.B) &&
      typeof f.analysis?.verdict?.kind === 'string' &&
      typeof f.analysis.chanceToBeat === 'number'
    return ok ? f : null
  } catch {
    return null
  }
}

/** A text's name in the desk: "The home page's headline", "Amazon Marketing: the headline". */
export const labelOf = (t: Translator, target: Target) =>
  target.label.service
    ? t(target.label.key, { service: t(target.label.service) })
    : t(target.label.key)

const small = 'btn-ghost px-3 py-1.5 text-sm'

const STATUS_CLASS: Record<ExperimentStatus, string> = {
  draft: 'bg-slate-100 text-ink-700',
  running: 'bg-green-100 text-green-800',
  paused: 'bg-amber-100 text-amber-900',
  stopped: 'bg-slate-200 text-ink-700',
  archived: 'bg-slate-200 text-ink-700',
}

function StatusBadge({ status }: { status: ExperimentStatus }) {
  const { t } = usePage()
  return (
    <span
      className={`inline-block shrink-0 rounded-full px-3 py-1 text-xs font-bold ${STATUS_CLASS[status]}`}
    >
      {t(`desk_experiments.status.${status}`)}
    </span>
  )
}

const goalName = (t: Translator, goal: string) =>
  isGoal(goal) ? t(`desk_experiments.goals.${goal}`) : goal

/** A text of the site, quoted in its own language and direction. */
function Quote({ lang, id, children }: { lang: Lang; id?: string; children: ReactNode }) {
  return (
    <blockquote
      id={id}
      lang={lang}
      dir={dirOf(lang)}
      className="m-0 break-words rounded-lg border-s-4 border-slate-300 bg-slate-50 px-3 py-2 text-sm text-ink-800"
    >
      {children}
    </blockquote>
  )
}

/** A rate, as a percentage of the language; a dash for an arm nobody saw. */
const rateOf = (lang: Lang, arm: Arm) =>
  arm.visitors ? formatPercent(lang, arm.conversions / arm.visitors) : '—'

/** "2.1% to 3.4%": the 95% interval of a rate. */
const intervalOf = (t: Translator, lang: Lang, interval: RateInterval | null) =>
  interval
    ? t('desk_experiments.results.interval', {
        low: formatPercent(lang, interval.low),
        high: formatPercent(lang, interval.high),
      })
    : '—'

/** A difference of rates in percentage points, to two decimals (one below that, said so). */
const pointsOf = (t: Translator, lang: Lang, difference: number) => {
  const points = Math.round(difference * 10_000) / 100
  return points === 0 && difference > 0
    ? t('desk_experiments.results.points_below', { n: formatNumber(lang, 0.01) })
    : t('desk_experiments.results.points', { n: formatNumber(lang, points) })
}

/** A p-value, to two significant digits; below 0.001, said as that. */
const pValueOf = (t: Translator, lang: Lang, p: number) =>
  p < 0.001
    ? t('desk_experiments.results.p_below', { p: formatNumber(lang, 0.001) })
    : formatNumber(lang, Number(p.toPrecision(2)))

/** The list's short line of an experiment's figures: the two rates and what they say. */
function shortResult(t: Translator, lang: Lang, figures: Figures) {
  const { counts, analysis } = figures
  const rates = t('desk_experiments.list.rates', {
    a: rateOf(lang, counts.A),
    b: rateOf(lang, counts.B),
  })
  const v = analysis.verdict
  const verdict =
    v.kind === 'srm'
      ? t('desk_experiments.list.srm')
      : v.kind === 'too_early'
        ? t('desk_experiments.list.too_early')
        : t(`desk_experiments.list.leads_${v.leader === 'B' ? 'b' : 'a'}`, {
            chance: formatPercent(lang, v.chanceToBeat),
          })
  return `${rates} · ${verdict}`
}

const LIST_COLUMNS = ['text', 'status', 'started', 'split', 'goal', 'result'] as const

/** /desk/experiments: every experiment, the live ones first, each with its figures in short. */
export function DeskExperimentsPage({
  experiments,
  done,
  error,
}: {
  experiments: {
    row: ExperimentRow
    label: string
    /** Its text A as the site has it now, in the desk's language */
    textA: string | null
    figures: Figures | null
  }[]
  done?: (typeof EXPERIMENT_DONE)[number]
  error?: ExperimentError
}) {
  const { t, lang, config } = usePage()
  const names = Object.fromEntries(
    LIST_COLUMNS.map((c) => [c, t(`desk_experiments.list.columns.${c}`)]),
  )
  const cell = (column: (typeof LIST_COLUMNS)[number], children: ReactNode, className = '') => (
    <DeskCardCell name={names[column]} className={className}>
      {children}
    </DeskCardCell>
  )
  return (
    <>
      <DeskHeader title={t('desk.nav.experiments')} section="/desk/experiments" />
      <div className="container space-y-6 pb-16">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <p className="m-0 max-w-3xl text-ink-700">{t('desk_experiments.intro')}</p>
          <a href="/desk/experiments/new" className="btn-primary py-2 text-sm">
            {t('desk_experiments.new_button')}
          </a>
        </div>
        {done && <DeskNotice>{t(`desk_experiments.done.${done}`)}</DeskNotice>}
        {error && <DeskNotice ok={false}>{t(`desk_experiments.errors.${error}`)}</DeskNotice>}
        {experiments.length === 0 ? (
          <p className="m-0 text-ink-600">{t('desk_experiments.list.none')}</p>
        ) : (
          <div className="rounded-2xl border border-slate-200 md:overflow-x-auto">
            <DeskCardTable
              caption={t('desk.nav.experiments')}
              columns={LIST_COLUMNS.map((c) => ({ name: names[c] }))}
              bodyClassName="[&_a]:(font-semibold text-brand-700)"
            >
              {experiments.map(({ row, label, textA, figures }) => (
                <tr key={row.id} data-experiment={row.id} data-status={row.status}>
                  {cell(
                    'text',
                    <span className="block space-y-1">
                      <a href={`/desk/experiments/${row.id}`} className="block">
                        {label}
                      </a>
                      {textA && (
                        <span className="block text-xs text-ink-600">
                          {t('desk_experiments.list.now', { text: textA })}
                        </span>
                      )}
                    </span>,
                    'md:max-w-sm',
                  )}
                  {cell('status', <StatusBadge status={row.status} />)}
                  {cell(
                    'started',
                    row.started_at && (
                      <time dateTime={row.started_at}>
                        {formatDateTime(lang, row.started_at, config.timeZone)}
                      </time>
                    ),
                    'md:whitespace-nowrap',
                  )}
                  {cell(
                    'split',
                    t('desk_experiments.split_value', {
                      n: formatPercent(lang, row.split_b / 100),
                    }),
                    'md:whitespace-nowrap',
                  )}
                  {cell('goal', goalName(t, row.goal))}
                  {cell(
                    'result',
                    row.status === 'draft' ? null : (
                      <>
                        {row.winner && (
                          <strong className="block text-ink-900">
                            {t('desk_experiments.list.winner', { variant: row.winner })}
                          </strong>
                        )}
                        {figures
                          ? shortResult(t, lang, figures)
                          : t(
                              row.status === 'archived'
                                ? 'desk_experiments.results.none_kept'
                                : 'desk_experiments.results.unavailable',
                            )}
                      </>
                    ),
                    'text-ink-700',
                  )}
                </tr>
              ))}
            </DeskCardTable>
          </div>
        )}
      </div>
    </>
  )
}

/** The texts an experiment may test, to choose one (for a new experiment, or a draft's). */
export function DeskExperimentChooserPage({
  targets,
  draft,
  error,
}: {
  targets: {
    id: string
    label: string
    group: 'home' | 'services'
    textA: string
    /** The experiment that holds it now */
    holder?: number
  }[]
  /** The draft whose text is being changed */
  draft?: number
  error?: ExperimentError
}) {
  const { t, lang } = usePage()
  const hrefOf = (id: string) =>
    draft === undefined
      ? `/desk/experiments/new?target=${encodeURIComponent(id)}`
      : `/desk/experiments/${draft}?target=${encodeURIComponent(id)}`
  return (
    <>
      <DeskHeader title={t('desk_experiments.choose.title')} section="/desk/experiments" />
      <div className="container space-y-6 pb-16">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <p className="m-0 max-w-3xl text-ink-700">{t('desk_experiments.choose.intro')}</p>
          <a
            href={draft === undefined ? '/desk/experiments' : `/desk/experiments/${draft}`}
            className="btn-ghost py-2 text-sm"
          >
            {t(draft === undefined ? 'desk_experiments.back' : 'desk_experiments.back_to_draft')}
          </a>
        </div>
        {error && <DeskNotice ok={false}>{t(`desk_experiments.errors.${error}`)}</DeskNotice>}
        {(['home', 'services'] as const).map((group) => (
          <section key={group} aria-labelledby={`choose-${group}`} className="space-y-3">
            <h2 id={`choose-${group}`} className="m-0 text-xl font-bold text-ink-900">
              {t(`desk_experiments.groups.${group}`)}
            </h2>
            <ul className="m-0 grid list-none gap-3 p-0 md:grid-cols-2">
              {targets
                .filter((target) => target.group === group)
                .map((target) => {
                  const free = target.holder === undefined || target.holder === draft
                  return (
                    <li key={target.id} className="card min-w-0 space-y-2" data-target={target.id}>
                      <p className="m-0 font-semibold text-ink-900">{target.label}</p>
                      <Quote lang={lang}>{target.textA}</Quote>
                      {free ? (
                        <a
                          href={hrefOf(target.id)}
                          className={small}
                          aria-label={`${t('desk_experiments.choose.pick')}: ${target.label}`}
                        >
                          {t('desk_experiments.choose.pick')}
                        </a>
                      ) : (
                        <p className="m-0 text-sm text-ink-600">
                          {t('desk_experiments.choose.held')}{' '}
                          <a
                            href={`/desk/experiments/${target.holder}`}
                            className="font-semibold text-brand-700"
                          >
                            {t('desk_experiments.open_it')}
                          </a>
                        </p>
                      )}
                    </li>
                  )
                })}
            </ul>
          </section>
        ))}
      </div>
    </>
  )
}

/** A field's error, in words. */
const problemOf = (t: Translator, problem: FieldErrors[keyof FieldErrors]) =>
  problem &&
  (problem === 'too_long'
    ? t('desk_experiments.field_errors.too_long', { max: formatNumber(t.lang, MAX_TEXT) })
    : t(`desk_experiments.field_errors.${problem}`))

/** The form of a new experiment or a draft: its text, goal, split, and B in each language. */
export function DeskExperimentFormPage({
  experiment,
  target,
  textsA,
  form,
  errors,
  holder,
  done,
  error,
}: {
  /** The draft, when it is one (else a new experiment) */
  experiment?: ExperimentRow
  target: { id: string; label: string }
  /** A in each language: the text as the site has it now */
  textsA: Record<Lang, string>
  form: ExperimentForm
  errors: FieldErrors
  /** The experiment that holds the text, when that refused the form */
  holder?: number
  done?: (typeof EXPERIMENT_DONE)[number]
  error?: ExperimentError
}) {
  const { t, lang, config } = usePage()
  const invalid = Object.keys(errors).length > 0
  const changed = experiment && experiment.target !== target.id
  return (
    <>
      <DeskHeader
        title={
          experiment
            ? t('desk_experiments.edit_title', { text: target.label })
            : t('desk_experiments.new_title')
        }
        section="/desk/experiments"
      />
      <div className="container space-y-6 pb-16">
        <div className="flex flex-wrap items-center justify-between gap-4">
          {experiment ? (
            <p className="m-0 flex flex-wrap items-center gap-2 text-sm text-ink-700">
              <StatusBadge status="draft" />
              {t('desk_experiments.draft_note', {
                date: formatDateTime(lang, experiment.created_at, config.timeZone),
              })}
            </p>
          ) : (
            <p className="m-0 max-w-3xl text-ink-700">{t('desk_experiments.form.intro')}</p>
          )}
          <a href="/desk/experiments" className="btn-ghost py-2 text-sm">
            {t('desk_experiments.back')}
          </a>
        </div>
        {done && <DeskNotice>{t(`desk_experiments.done.${done}`)}</DeskNotice>}
        {error && <DeskNotice ok={false}>{t(`desk_experiments.errors.${error}`)}</DeskNotice>}
        <form
          method="post"
          action={experiment ? `/desk/experiments/${experiment.id}` : '/desk/experiments'}
          className="card space-y-6"
          noValidate={invalid}
        >
          {invalid && (
            <DeskNotice ok={false}>
              {errors.target === 'taken' ? (
                <>
                  {t('desk_experiments.field_errors.taken')}{' '}
                  {holder !== undefined && (
                    <a
                      href={`/desk/experiments/${holder}`}
                      className="font-semibold text-amber-900 underline"
                    >
                      {t('desk_experiments.open_it')}
                    </a>
                  )}
                </>
              ) : (
                t('desk_experiments.errors.form')
              )}
            </DeskNotice>
          )}
          <div className="grid gap-5 md:grid-cols-3">
            <div className="min-w-0">
              <input type="hidden" name="target" value={target.id} />
              <p className={labelClass}>{t('desk_experiments.form.text')}</p>
              <p className="m-0 font-semibold text-ink-900">{target.label}</p>
              {changed && (
                <p className="m-0 mt-1 text-xs text-amber-900">
                  {t('desk_experiments.form.text_changed')}
                </p>
              )}
              <a
                href={
                  experiment
                    ? `/desk/experiments/new?draft=${experiment.id}`
                    : '/desk/experiments/new'
                }
                className="mt-1 inline-block text-sm font-semibold text-brand-700"
              >
                {t('desk_experiments.form.change_text')}
              </a>
            </div>
            <div className="min-w-0">
              <label htmlFor="exp-goal" className={labelClass}>
                {t('desk_experiments.form.goal')}
              </label>
              <select
                id="exp-goal"
                name="goal"
                required
                defaultValue={form.goal}
                className={inputClass}
                aria-invalid={errors.goal ? true : undefined}
                aria-describedby={`exp-goal-hint${errors.goal ? ' exp-goal-error' : ''}`}
              >
                {GOALS.map((g) => (
                  <option key={g} value={g}>
                    {goalName(t, g)}
                  </option>
                ))}
              </select>
              <p id="exp-goal-hint" className="m-0 mt-1 text-xs text-ink-600">
                {t('desk_experiments.form.goal_hint')}
              </p>
              {errors.goal && (
                <p id="exp-goal-error" className="m-0 mt-1 text-sm text-red-700">
                  {problemOf(t, errors.goal)}
                </p>
              )}
            </div>
            <div className="min-w-0">
              <label htmlFor="exp-split" className={labelClass}>
                {t('desk_experiments.form.split')}
              </label>
              <div className="flex items-center gap-2">
                <input
                  id="exp-split"
                  name="split"
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={99}
                  step={1}
                  required
                  defaultValue={form.split}
                  className={`${inputClass} max-w-24`}
                  aria-invalid={errors.split ? true : undefined}
                  aria-describedby={`exp-split-hint${errors.split ? ' exp-split-error' : ''}`}
                />
                <span aria-hidden="true" className="text-ink-700">
                  %
                </span>
              </div>
              <p id="exp-split-hint" className="m-0 mt-1 text-xs text-ink-600">
                {t('desk_experiments.form.split_hint')}
              </p>
              {errors.split && (
                <p id="exp-split-error" className="m-0 mt-1 text-sm text-red-700">
                  {problemOf(t, errors.split)}
                </p>
              )}
            </div>
          </div>
          <fieldset className="m-0 min-w-0 space-y-4 border-0 p-0">
            <legend className="m-0 p-0 text-lg font-bold text-ink-900">
              {t('desk_experiments.form.texts_legend')}
            </legend>
            <p className="m-0 text-sm text-ink-700">{t('desk_experiments.form.texts_hint')}</p>
            <div className="grid gap-5 md:grid-cols-2">
              {LANGS.map((l) => {
                const id = `exp-text-${l}`
                const problem = errors[`text_${l}`]
                return (
                  <div key={l} className="min-w-0 space-y-2" data-lang={l}>
                    <p className="m-0 text-sm font-bold text-ink-900">
                      {languageName(lang, l)}{' '}
                      <span className="font-normal text-ink-600" dir="ltr">
                        ({l})
                      </span>
                    </p>
                    <div className="space-y-1">
                      <p className="m-0 text-xs font-semibold text-ink-600">
                        {t('desk_experiments.form.a_now')}
                      </p>
                      <Quote lang={l} id={`${id}-a`}>
                        {textsA[l]}
                      </Quote>
                    </div>
                    <div>
                      <label htmlFor={id} className={labelClass}>
                        {t('desk_experiments.form.b_label', { language: languageName(lang, l) })}
                      </label>
                      <textarea
                        id={id}
                        name={`text_${l}`}
                        lang={l}
                        dir={dirOf(l)}
                        rows={3}
                        maxLength={MAX_TEXT}
                        defaultValue={form.texts[l]}
                        className={inputClass}
                        aria-invalid={problem ? true : undefined}
                        aria-describedby={`${id}-a${problem ? ` ${id}-error` : ''}`}
                      />
                      {problem && (
                        <p id={`${id}-error`} className="m-0 mt-1 text-sm text-red-700">
                          {problemOf(t, problem)}
                        </p>
                      )}
                    </div>
                  </div>
                )
              })}
            </div>
          </fieldset>
          <button type="submit" className="btn-primary">
            {t(experiment ? 'desk_experiments.form.save' : 'desk_experiments.form.create')}
          </button>
        </form>
        {experiment && (
          <form
            method="post"
            action={`/desk/experiments/${experiment.id}/start`}
            className="card space-y-3"
            aria-labelledby="start-title"
          >
            <h2 id="start-title" className="m-0 text-lg font-bold text-ink-900">
              {t('desk_experiments.start_title')}
            </h2>
            <p className="m-0 text-sm text-ink-700">{t('desk_experiments.start_text')}</p>
            <button type="submit" className="btn-primary">
              {t('desk_experiments.actions.start')}
            </button>
          </form>
        )}
      </div>
    </>
  )
}

/** The languages in the site's order, then any other the figures name. */
const languagesOf = (counts: ExperimentCounts) => {
  const named = new Set([...Object.keys(counts.A.byLang), ...Object.keys(counts.B.byLang)])
  return [...LANGS.filter((l) => named.has(l)), ...[...named].filter((l) => !isLang(l)).sort()]
}

const NONE: Arm = { visitors: 0, conversions: 0 }

const ARM_COLUMNS = ['variant', 'visitors', 'conversions', 'rate'] as const

/** Rows of the variants' figures: all languages, or one language's (`language`). */
function ArmTable({
  caption,
  rows,
}: {
  caption: string
  rows: { key: string; language?: string; variant: 'A' | 'B'; arm: Arm }[]
}) {
  const { t, lang } = usePage()
  const columns = [
    ...(rows[0]?.language !== undefined ? (['language'] as const) : []),
    ...ARM_COLUMNS,
  ]
  const names = Object.fromEntries(
    columns.map((c) => [c, t(`desk_experiments.results.columns.${c}`)]),
  )
  return (
    <div className="rounded-2xl border border-slate-200 md:overflow-x-auto">
      <DeskCardTable caption={caption} columns={columns.map((c) => ({ name: names[c] }))}>
        {rows.map((r) => (
          <tr key={r.key} data-variant={r.variant} data-lang={r.language}>
            {r.language !== undefined && (
              <DeskCardCell name={names.language} className="font-semibold text-ink-900">
                {r.language}
              </DeskCardCell>
            )}
            <DeskCardCell name={names.variant} className="font-semibold text-ink-900">
              {r.variant}
            </DeskCardCell>
            <DeskCardCell name={names.visitors}>{formatNumber(lang, r.arm.visitors)}</DeskCardCell>
            <DeskCardCell name={names.conversions}>
              {formatNumber(lang, r.arm.conversions)}
            </DeskCardCell>
            <DeskCardCell name={names.rate}>
              <strong className="text-ink-900">{rateOf(lang, r.arm)}</strong>
              {r.arm.visitors > 0 && (
                <span className="text-ink-600"> ({intervalOf(t, lang, rateInterval(r.arm))})</span>
              )}
            </DeskCardCell>
          </tr>
        ))}
      </DeskCardTable>
    </div>
  )
}

/** What the figures say: a mismatched split (in place of any verdict), too early, or a leader. */
function Verdict({ analysis, splitB }: { analysis: Analysis; splitB: number }) {
  const { t, lang } = usePage()
  const v = analysis.verdict
  if (v.kind === 'srm')
    return (
      <div
        role="alert"
        data-verdict="srm"
        className="space-y-1 rounded-2xl border-2 border-red-600 bg-red-50 p-4 text-red-900"
      >
        <p className="m-0 font-bold">{t('desk_experiments.verdict.srm_title')}</p>
        <p className="m-0 text-sm">
          {t('desk_experiments.verdict.srm_text', {
            a: formatNumber(lang, analysis.A.visitors),
            b: formatNumber(lang, analysis.B.visitors),
            split: formatPercent(lang, splitB / 100),
            p: pValueOf(t, lang, analysis.srm.p),
          })}
        </p>
      </div>
    )
  if (v.kind === 'too_early') {
    const missing = [
      v.daysLeft > 0 && t.plural('desk_experiments.verdict.days_left', v.daysLeft),
      ...(['A', 'B'] as const).map(
        (variant) =>
          v.conversionsMissing[variant] > 0 &&
          t.plural('desk_experiments.verdict.conversions_missing', v.conversionsMissing[variant], {
            variant,
          }),
      ),
    ].filter((m): m is string => !!m)
    return (
      <div
        data-verdict="too_early"
        className="space-y-2 rounded-2xl border border-amber-300 bg-amber-50 p-4 text-amber-950"
      >
        <p className="m-0 font-bold">{t('desk_experiments.verdict.too_early_title')}</p>
        <p className="m-0 text-sm">
          {t('desk_experiments.verdict.too_early_rule', {
            days: formatNumber(lang, MIN_DAYS),
            conversions: formatNumber(lang, MIN_CONVERSIONS),
          })}
        </p>
        {missing.length > 0 && (
          <ul className="m-0 list-disc space-y-0.5 ps-5 text-sm">
            {missing.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        )}
      </div>
    )
  }
  return (
    <div
      data-verdict="ready"
      className="space-y-1 rounded-2xl border border-green-300 bg-green-50 p-4 text-green-900"
    >
      <p className="m-0 font-bold">
        {t(`desk_experiments.verdict.leads_${v.leader === 'B' ? 'b' : 'a'}`, {
          chance: formatPercent(lang, v.chanceToBeat),
        })}
      </p>
      <p className="m-0 text-sm">{t('desk_experiments.verdict.ready_note')}</p>
    </div>
  )
}

/** The figures: the verdict, B against A, and each variant's, overall and per language. */
function Results({ figures, splitB }: { figures: Figures; splitB: number }) {
  const { t, lang, config } = usePage()
  const { counts, analysis } = figures
  const languages = languagesOf(counts)
  return (
    <div className="space-y-5">
      <p className="m-0 text-sm text-ink-600">
        {t('desk_experiments.results.as_of', {
          date: formatDateTime(lang, figures.at, config.timeZone),
        })}
      </p>
      <Verdict analysis={analysis} splitB={splitB} />
      <dl className="m-0 grid gap-3 sm:grid-cols-3">
        {(
          [
            ['chance', formatPercent(lang, analysis.chanceToBeat)],
            ['loss_b', pointsOf(t, lang, analysis.expectedLoss.ofB)],
            ['loss_a', pointsOf(t, lang, analysis.expectedLoss.ofA)],
          ] as const
        ).map(([key, value]) => (
          <div key={key} className="card min-w-0 space-y-1 p-4" data-figure={key}>
            <dt className="text-sm text-ink-600">{t(`desk_experiments.results.${key}`)}</dt>
            <dd className="m-0 text-2xl font-bold text-ink-900">{value}</dd>
            <dd className="m-0 text-xs text-ink-600">
              {t(`desk_experiments.results.${key}_hint`)}
            </dd>
          </div>
        ))}
      </dl>
      <section aria-labelledby="overall-title" className="space-y-2">
        <h3 id="overall-title" className="m-0 text-base font-bold text-ink-900">
          {t('desk_experiments.results.overall')}
        </h3>
        <ArmTable
          caption={t('desk_experiments.results.overall')}
          rows={(['A', 'B'] as const).map((variant) => ({
            key: variant,
            variant,
            arm: counts[variant],
          }))}
        />
      </section>
      <section aria-labelledby="by-lang-title" className="space-y-2">
        <h3 id="by-lang-title" className="m-0 text-base font-bold text-ink-900">
          {t('desk_experiments.results.by_language')}
        </h3>
        {languages.length ? (
          <ArmTable
            caption={t('desk_experiments.results.by_language')}
            rows={languages.flatMap((l) =>
              (['A', 'B'] as const).map((variant) => ({
                key: `${l}-${variant}`,
                language: isLang(l) ? languageName(lang, l) : l,
                variant,
                arm: counts[variant].byLang[l] ?? NONE,
              })),
            )}
          />
        ) : (
          <p className="m-0 text-sm text-ink-600">{t('desk_experiments.results.no_visitors')}</p>
        )}
      </section>
    </div>
  )
}

/** "{date} by {email}", the address isolated from the words around it and broken anywhere. */
function CreatedBy({ date, email }: { date: string; email: string }) {
  const { t } = usePage()
  const [before, after = ''] = t('desk_experiments.created_by', { date, email: '\u0000' }).split(
    '\u0000',
  )
  return (
    <>
      {before}
      <bdi dir="ltr" className="break-all">
        {email}
      </bdi>
      {after}
    </>
  )
}

/** A change of status: one button, its form posted. */
function MoveForm({
  id,
  move,
  primary = false,
}: {
  id: number
  move: Exclude<Move, 'start'>
  primary?: boolean
}) {
  const { t } = usePage()
  return (
    <form method="post" action={`/desk/experiments/${id}/${move}`}>
      <button
        type="submit"
        className={primary ? 'btn-primary px-4 py-2 text-sm' : 'btn-ghost px-4 py-2 text-sm'}
      >
        {t(`desk_experiments.actions.${move}`)}
      </button>
    </form>
  )
}

/** /desk/experiments/:id once started: its state and actions, its texts, its figures. */
export function DeskExperimentPage({
  experiment: e,
  label,
  textsA,
  figures,
  done,
  error,
}: {
  experiment: ExperimentRow
  label: string
  /** A in each language, as the site has it now (null: a text the site no longer offers) */
  textsA: Record<Lang, string> | null
  figures: Figures | null
  done?: (typeof EXPERIMENT_DONE)[number]
  error?: ExperimentError
}) {
  const { t, lang, config } = usePage()
  const when = (iso: string) => formatDateTime(lang, iso, config.timeZone)
  let textsB: Partial<Record<Lang, string>> = {}
  try {
    textsB = JSON.parse(e.texts) as typeof textsB
  } catch {
    // (shown as none)
  }
  const bLanguages = LANGS.filter((l) => typeof textsB[l] === 'string' && textsB[l])
  const pickable = (PICKABLE as readonly string[]).includes(e.status)
  const noVerdict = !figures || figures.analysis.verdict.kind !== 'ready'
  const textColumns = ['language', 'a', 'b'] as const
  const names = Object.fromEntries(
    textColumns.map((c) => [c, t(`desk_experiments.texts.columns.${c}`)]),
  )
  return (
    <>
      <DeskHeader title={label} section="/desk/experiments" />
      <div className="container space-y-8 pb-16">
        <div className="flex flex-wrap items-center justify-between gap-4">
          <p className="m-0 flex flex-wrap items-center gap-2 text-ink-700">
            <StatusBadge status={e.status} />
            <span>{t(`desk_experiments.status_text.${e.status}`)}</span>
          </p>
          <a href="/desk/experiments" className="btn-ghost py-2 text-sm">
            {t('desk_experiments.back')}
          </a>
        </div>
        {done && <DeskNotice>{t(`desk_experiments.done.${done}`)}</DeskNotice>}
        {error && <DeskNotice ok={false}>{t(`desk_experiments.errors.${error}`)}</DeskNotice>}
        {e.winner && (
          <div
            data-winner={e.winner}
            className="space-y-1 rounded-2xl border-2 border-brand-600 bg-brand-50 p-4 text-ink-900"
          >
            <p className="m-0 text-lg font-bold">
              {t('desk_experiments.winner.title', { variant: e.winner })}
            </p>
            <p className="m-0 text-sm">
              {e.winner === 'B'
                ? t('desk_experiments.winner.b_text', {
                    languages: bLanguages.map((l) => languageName(lang, l)).join(', '),
                  })
                : t('desk_experiments.winner.a_text')}
            </p>
          </div>
        )}
        <section className="card space-y-4" aria-labelledby="about-title">
          <h2 id="about-title" className="m-0 text-lg font-bold text-ink-900">
            {t('desk_experiments.about_title')}
          </h2>
          <dl className="m-0 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1.5 text-sm">
            <dt className="text-ink-600">{t('desk_experiments.labels.goal')}</dt>
            <dd className="m-0">{goalName(t, e.goal)}</dd>
            <dt className="text-ink-600">{t('desk_experiments.labels.split')}</dt>
            <dd className="m-0">
              {t('desk_experiments.split_value', { n: formatPercent(lang, e.split_b / 100) })}
            </dd>
            {e.started_at && (
              <>
                <dt className="text-ink-600">{t('desk_experiments.labels.started')}</dt>
                <dd className="m-0">
                  <time dateTime={e.started_at}>{when(e.started_at)}</time>
                </dd>
              </>
            )}
            {e.ended_at && (
              <>
                <dt className="text-ink-600">{t('desk_experiments.labels.ended')}</dt>
                <dd className="m-0">
                  <time dateTime={e.ended_at}>{when(e.ended_at)}</time>
                </dd>
              </>
            )}
            <dt className="text-ink-600">{t('desk_experiments.labels.created')}</dt>
            <dd className="m-0">
              <CreatedBy date={when(e.created_at)} email={e.created_by} />
            </dd>
          </dl>
          {(e.status === 'running' || e.status === 'paused') && (
            <div className="flex flex-wrap gap-2 border-t border-slate-200 pt-4">
              {e.status === 'running' ? (
                <MoveForm id={e.id} move="pause" />
              ) : (
                <MoveForm id={e.id} move="resume" primary />
              )}
              <MoveForm id={e.id} move="stop" />
            </div>
          )}
        </section>
        <section aria-labelledby="texts-title" className="space-y-3">
          <h2 id="texts-title" className="m-0 text-xl font-bold text-ink-900">
            {t('desk_experiments.texts.title')}
          </h2>
          <div className="rounded-2xl border border-slate-200 md:overflow-x-auto">
            <DeskCardTable
              caption={t('desk_experiments.texts.title')}
              columns={textColumns.map((c) => ({ name: names[c] }))}
            >
              {LANGS.map((l) => (
                <tr key={l} data-lang={l}>
                  <DeskCardCell name={names.language} className="font-semibold text-ink-900">
                    {languageName(lang, l)}
                  </DeskCardCell>
                  <DeskCardCell name={names.a} className="md:w-2/5">
                    {textsA && (
                      <span lang={l} dir={dirOf(l)}>
                        {textsA[l]}
                      </span>
                    )}
                  </DeskCardCell>
                  <DeskCardCell name={names.b} className="md:w-2/5">
                    {textsB[l] ? (
                      <span lang={l} dir={dirOf(l)} className="font-semibold text-ink-900">
                        {textsB[l]}
                      </span>
                    ) : (
                      <span className="italic text-ink-600">
                        {t('desk_experiments.texts.keeps_a')}
                      </span>
                    )}
                  </DeskCardCell>
                </tr>
              ))}
            </DeskCardTable>
          </div>
          {e.winner === 'B' && (
            <p className="m-0 text-xs text-ink-600">{t('desk_experiments.texts.a_after_b')}</p>
          )}
        </section>
        <section aria-labelledby="results-title" className="space-y-3">
          <h2 id="results-title" className="m-0 text-xl font-bold text-ink-900">
            {t('desk_experiments.results.title')}
          </h2>
          {figures ? (
            <Results figures={figures} splitB={e.split_b} />
          ) : (
            <DeskNotice ok={false}>
              {t(
                e.status === 'archived'
                  ? 'desk_experiments.results.none_kept'
                  : 'desk_experiments.results.unavailable',
              )}
            </DeskNotice>
          )}
        </section>
        {pickable && (
          <section aria-labelledby="winner-title" className="card space-y-3">
            <h2 id="winner-title" className="m-0 text-lg font-bold text-ink-900">
              {t('desk_experiments.pick.title')}
            </h2>
            <p className="m-0 text-sm text-ink-700">{t('desk_experiments.pick.intro')}</p>
            {noVerdict && (
              <p className="m-0 rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
                {t('desk_experiments.pick.no_verdict')}
              </p>
            )}
            {(['A', 'B'] as const).map((variant) => (
              <details key={variant} className="rounded-lg border border-slate-200 p-3">
                <summary className="cursor-pointer text-sm font-semibold text-brand-700">
                  {t('desk_experiments.pick.choose', { variant })}
                </summary>
                <form
                  method="post"
                  action={`/desk/experiments/${e.id}/winner`}
                  className="mt-3 space-y-3"
                >
                  <input type="hidden" name="winner" value={variant} />
                  <p className="m-0 text-sm text-ink-700">
                    {variant === 'B'
                      ? t('desk_experiments.pick.b_text', {
                          languages: bLanguages.map((l) => languageName(lang, l)).join(', '),
                        })
                      : t('desk_experiments.pick.a_text')}
                  </p>
                  <button type="submit" className="btn-primary max-w-full px-4 py-2 text-sm">
                    {t('desk_experiments.pick.confirm', { variant })}
                  </button>
                </form>
              </details>
            ))}
          </section>
        )}
      </div>
    </>
  )
}
