import { useRef, type FormEvent } from 'react'
import { Honeypot, Spinner } from '../components/field'
import { defineIsland } from '../island'
import {
  announceSubscription,
  formValues,
  useLeadForm,
  type ErrorTexts,
  type SubscribeNotices,
  validateInScript,
} from '../lib/use-lead-form'
import type { ChallengeConfig } from '../lib/challenge'

export type NewsletterFormProps = {
  /** The page's Turnstile settings (null: none runs). */
  challenge: ChallengeConfig
  labels: {
    email: string
    submit: string
    submitting: string
    honeypot: string
    thanksTitle: string
    thanksText: string
  }
  notices: ErrorTexts & SubscribeNotices & { missingText: string }
}

/** The footer's Stay Updated box (SPEC §2, §4): e-mail only. */
function NewsletterForm({ labels, notices, challenge }: NewsletterFormProps) {
  const challengeSlot = useRef<HTMLDivElement>(null)
  const form = useLeadForm(notices, {
    config: challenge,
    action: 'newsletter',
    slot: challengeSlot,
  })

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const { email = '', website = '' } = formValues(event.currentTarget)
    if (!email.trim()) return form.missing(notices.missingText)
    await form.submit<{ alreadySubscribed: boolean; mailed?: boolean }>(
      '/api/newsletter',
      { email, website },
      (answer) => announceSubscription(notices, answer, 'newsletter'),
    )
  }

  if (form.state === 'success')
    return (
      <div className="mt-3 rounded-lg bg-white/10 p-3" role="status">
        <p className="m-0 text-sm font-semibold text-white">{labels.thanksTitle}</p>
        <p className="m-0 mt-1 text-xs text-slate-300">{labels.thanksText}</p>
      </div>
    )

  const busy = form.state === 'submitting'
  return (
    <>
      <form
        ref={validateInScript}
        method="post"
        action="/api/newsletter"
        onSubmit={onSubmit}
        className="relative mt-3 flex gap-2"
      >
        <label htmlFor="newsletter-email" className="sr-only">
          {labels.email}
        </label>
        <input
          id="newsletter-email"
          name="email"
          type="email"
          required
          maxLength={254}
          autoComplete="email"
          placeholder={labels.email}
          aria-invalid={form.fieldErrors.email ? true : undefined}
          className="min-w-0 flex-1 rounded-lg border border-white/20 bg-white px-3 py-2 text-sm text-ink-900"
        />
        <Honeypot label={labels.honeypot} />
        <button
          type="submit"
          disabled={busy}
          className="btn-accent px-4 py-2 text-sm disabled:opacity-80"
        >
          {busy ? <Spinner /> : labels.submit}
          {busy && <span className="sr-only">{labels.submitting}</span>}
        </button>
      </form>
      <div ref={challengeSlot} className="mt-2 empty:hidden" />
    </>
  )
}

export default defineIsland('newsletter-form', NewsletterForm)
