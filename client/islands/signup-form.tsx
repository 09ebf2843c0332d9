import { useRef, type FormEvent } from 'react'
import { PersonFields, SubmitButton } from '../components/field'
import { Icon } from '../components/icon'
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

export type SignupFormProps = {
  /** The page's Turnstile settings (null: none runs). */
  challenge: ChallengeConfig
  labels: {
    name: string
    email: string
    submit: string
    submitting: string
    honeypot: string
    thanksTitle: string
    thanksText: string
  }
  notices: ErrorTexts & SubscribeNotices & { missingText: string }
}

/** The welcome popup's signup form (SPEC §4, §5, §8): name and e-mail into the subscriber list. */
function SignupForm({ labels, notices, challenge }: SignupFormProps) {
  const challengeSlot = useRef<HTMLDivElement>(null)
  const form = useLeadForm(notices, {
    config: challenge,
    action: 'welcome-popup',
    slot: challengeSlot,
  })

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const { name = '', email = '', website = '' } = formValues(event.currentTarget)
    if (!name.trim() || !email.trim()) return form.missing(notices.missingText)
    await form.submit<{ alreadySubscribed: boolean; mailed?: boolean }>(
      '/api/email-signup',
      { name, email, source: 'website', website },
      (answer) => announceSubscription(notices, answer, 'welcome_popup'),
    )
  }

  if (form.state === 'success')
    return (
      <div className="rounded-xl bg-brand-50 p-5 text-center" role="status">
        <Icon name="check" className="mx-auto h-8 w-8 text-brand-700" />
        <p className="m-0 mt-2 text-lg font-bold text-ink-900">{labels.thanksTitle}</p>
        <p className="m-0 mt-1 text-ink-700">{labels.thanksText}</p>
      </div>
    )

  const busy = form.state === 'submitting'
  return (
    <form
      ref={validateInScript}
      method="post"
      action="/api/email-signup"
      onSubmit={onSubmit}
      className="relative space-y-3"
    >
      <PersonFields prefix="signup" labels={labels} errors={form.fieldErrors} />
      <SubmitButton busy={busy} label={labels.submit} busyLabel={labels.submitting} />
      <div ref={challengeSlot} className="empty:hidden" />
    </form>
  )
}

export default defineIsland('signup-form', SignupForm)
