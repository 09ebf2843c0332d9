import { useState, type FormEvent, useRef } from 'react'
import { PersonFields, SubmitButton } from '../components/field'
import { Icon } from '../components/icon'
import { defineIsland } from '../island'
import { notify } from '../lib/notices'
import { reportLead } from '../lib/trackers'
import { formValues, useLeadForm, type ErrorTexts, validateInScript } from '../lib/use-lead-form'
import type { ChallengeConfig } from '../lib/challenge'

export type Guide = {
  slug: string
  title: string
  category: string
  description: string
  benefits: string[]
  preview: string
  /** Already formatted for the page's language, e.g. "15,300+ downloads". */
  downloads: string
  rating: string
  ratingLabel: string
}

export type GuidePickerProps = {
  /** The page's Turnstile settings (null: none runs). */
  challenge: ChallengeConfig
  guides: Guide[]
  labels: {
    select: string
    selected: string
    benefits: string
    preview: string
    formTitle: string
    name: string
    email: string
    submit: string
    submitting: string
    privacy: string
    honeypot: string
    thanksTitle: string
    thanksText: string
    downloadAgain: string
  }
  /** "{{title}}" in `downloadText` is filled in with the guide's title. */
  notices: ErrorTexts & { missingText: string; downloadTitle: string; downloadText: string }
}

/** Starts a download of a same-origin file without leaving the page. */
function download(url: string) {
  const a = document.createElement('a')
  a.href = url
  a.download = ''
  document.body.appendChild(a)
  a.click()
  a.remove()
}

/** The free-guide section (SPEC §2): pick one of three guides, the first by default. */
function GuidePicker({ guides, labels, notices, challenge }: GuidePickerProps) {
  const [selected, setSelected] = useState(0)
  const [downloadUrl, setDownloadUrl] = useState('')
  const challengeSlot = useRef<HTMLDivElement>(null)
  const form = useLeadForm(notices, { config: challenge, action: 'guide', slot: challengeSlot })
  const guide = guides[selected]

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const { name = '', email = '', website = '' } = formValues(event.currentTarget)
    if (!name.trim() || !email.trim()) return form.missing(notices.missingText)
    await form.submit<{ downloadUrl: string; mailed?: boolean }>(
      '/api/guide-requests',
      { name, email, guide: guide.slug, website },
      (answer) => {
        setDownloadUrl(answer.downloadUrl)
        download(answer.downloadUrl)
        notify({
          title: notices.downloadTitle,
          // downloaded, but not e-mailed (the address is over the day's ceiling): said so
          description:
            answer.mailed === false
              ? notices.mailNotSent
              : notices.downloadText.replace('{{title}}', guide.title),
        })
        reportLead('guide')
      },
    )
  }

  const choose = (i: number) => {
    setSelected(i)
    if (form.state === 'success') form.reset()
  }
  const busy = form.state === 'submitting'
  return (
    <div className="grid gap-8 lg:grid-cols-[1fr_1.1fr]">
      <ul className="m-0 list-none space-y-4 p-0">
        {guides.map((g, i) => (
          <li key={g.title}>
            <button
              type="button"
              aria-pressed={i === selected}
              onClick={() => choose(i)}
              className={`w-full rounded-2xl border-2 bg-white p-5 text-start transition-colors ${
                i === selected
                  ? 'border-brand-600 shadow-md'
                  : 'border-slate-200 hover:border-brand-200'
              }`}
            >
              <span className="flex items-center justify-between gap-3">
                <span className="rounded-full bg-brand-50 px-3 py-1 text-xs font-semibold text-brand-700">
                  {g.category}
                </span>
                {i === selected && (
                  <span className="flex items-center gap-1 text-xs font-semibold text-brand-700">
                    <Icon name="check" className="h-4 w-4" />
                    {labels.selected}
                  </span>
                )}
              </span>
              <span className="mt-3 block text-lg font-bold text-ink-900">{g.title}</span>
              <span className="mt-1 block text-sm text-ink-600">{g.description}</span>
              <span className="mt-3 flex items-center gap-4 text-sm text-ink-600">
                <span className="flex items-center gap-1">
                  <Icon name="download" className="h-4 w-4" />
                  {g.downloads}
                </span>
                <span className="flex items-center gap-1">
                  <Icon name="star" filled className="h-4 w-4 text-accent-500" />
                  <span aria-hidden="true">{g.rating}</span>
                  <span className="sr-only">{g.ratingLabel}</span>
                </span>
              </span>
            </button>
          </li>
        ))}
      </ul>
      <div className="card" aria-live="polite">
        <h3 className="m-0 text-xl font-bold text-ink-900">{guide.title}</h3>
        <h4 className="m-0 mt-5 text-sm font-semibold uppercase tracking-wider text-ink-600">
          {labels.benefits}
        </h4>
        <ul className="m-0 mt-3 list-none space-y-2 p-0">
          {guide.benefits.map((b) => (
            <li key={b} className="flex gap-2 text-ink-700">
              <Icon name="check" className="mt-0.5 h-5 w-5 shrink-0 text-brand-600" />
              {b}
            </li>
          ))}
        </ul>
        <h4 className="m-0 mt-5 text-sm font-semibold uppercase tracking-wider text-ink-600">
          {labels.preview}
        </h4>
        <p className="m-0 mt-2 border-s-4 border-brand-200 ps-4 italic text-ink-700">
          {guide.preview}
        </p>
        {form.state === 'success' ? (
          <div className="mt-6 rounded-xl bg-brand-50 p-5" role="status">
            <p className="m-0 font-bold text-ink-900">{labels.thanksTitle}</p>
            <p className="m-0 mt-1 text-ink-700">{labels.thanksText}</p>
            <a href={downloadUrl} download className="btn-primary mt-4">
              <Icon name="download" />
              {labels.downloadAgain}
            </a>
          </div>
        ) : (
          <form
            ref={validateInScript}
            method="post"
            action="/api/guide-requests"
            onSubmit={onSubmit}
            className="relative mt-6 space-y-3"
          >
            <p className="m-0 font-semibold text-ink-900">{labels.formTitle}</p>
            <input type="hidden" name="guide" value={guide.slug} />
            <PersonFields prefix="guide" labels={labels} errors={form.fieldErrors} />
            <SubmitButton
              busy={busy}
              label={labels.submit}
              busyLabel={labels.submitting}
              icon={<Icon name="download" />}
            />
            <p className="m-0 text-xs text-ink-600">{labels.privacy}</p>
            <div ref={challengeSlot} className="empty:hidden" />
          </form>
        )}
      </div>
    </div>
  )
}

export default defineIsland('guide-picker', GuidePicker)
