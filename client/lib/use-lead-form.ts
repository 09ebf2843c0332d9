import { useRef, useState, type RefObject } from 'react'
import type { ChallengeConfig } from './challenge'
import { notify } from './notices'
import { postLead, type LeadAnswer } from './post-lead'
import { reportLead } from './trackers'

export type FormState = 'idle' | 'submitting' | 'success'

/** Error notice wording every lead form shares (SPEC §8). */
export type ErrorTexts = {
  errorTitle: string
  errorGeneric: string
  missingTitle: string
  /** The challenge's widget could not run (its script blocked, the widget failed). */
  challengeFailed: string
  /** Stored, but no e-mail went: the address is over the day's ceiling (worker/db/outbox.ts). */
  mailNotSent: string
}

/**
 * A form that e-mails the address typed in it: its challenge, the form it is made for, and
 * where in the form the widget draws itself should Cloudflare want the visitor.
 */
export type FormChallenge = {
  config: ChallengeConfig
  action: string
  slot: RefObject<HTMLDivElement | null>
}

/** Hydrated, the island validates itself (SPEC §5's notices) instead of the browser. */
export const validateInScript = (form: HTMLFormElement | null) => {
  if (form) form.noValidate = true
}

/**
 * State of a lead form: idle → submitting → success. The server markup validates natively
 * (no JavaScript); once hydrated the island validates itself to show SPEC §5's notices.
 */
export function useLeadForm(texts: ErrorTexts, challenge?: FormChallenge) {
  const [state, setState] = useState<FormState>('idle')
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({})
  // a second tap before React has drawn the busy button sends nothing (state is a render late)
  const sending = useRef(false)

  function failed(description: string) {
    notify({ title: texts.errorTitle, description, variant: 'destructive' })
  }

  function missing(text: string) {
    notify({ title: texts.missingTitle, description: text, variant: 'destructive' })
  }

  async function submit<T>(
    url: string,
    body: unknown,
    onSuccess: (data: T) => void,
    onError?: (answer: Extract<LeadAnswer<T>, { ok: false }>) => void,
  ) {
    if (sending.current) return
    sending.current = true
    try {
      setState('submitting')
      setFieldErrors({})
      let token: string | undefined
      const slot = challenge?.slot.current
      if (challenge?.config && slot) {
        try {
          // the challenge's code comes with the first send (lib/challenge.ts)
          const { challengeToken } = await import('./challenge')
          token = await challengeToken(challenge.config, challenge.action, slot)
        } catch {
          setState('idle')
          return failed(texts.challengeFailed)
        }
      }
      const answer = await postLead<T>(
        url,
        token ? { ...(body as Record<string, unknown>), challengeToken: token } : body,
      )
      if (answer.ok) {
        setState('success')
        onSuccess(answer.data)
        return
      }
      setState('idle')
      setFieldErrors(answer.fields ?? {})
      onError?.(answer)
      failed(answer.error ?? texts.errorGeneric)
    } finally {
      sending.current = false
    }
  }

  return {
    state,
    fieldErrors,
    missing,
    submit,
    reset: () => setState('idle'),
  }
}

/** Reads a form's fields as strings. */
export function formValues(form: HTMLFormElement): Record<string, string> {
  return Object.fromEntries([...new FormData(form)].map(([k, v]) => [k, String(v)]))
}

export type SubscribeNotices = {
  successTitle: string
  successText: string
  alreadyTitle: string
  alreadyText: string
}

/** The answer to a subscription, as SPEC §8 words it; a new subscriber is a lead to report. */
export function announceSubscription(
  n: SubscribeNotices & Pick<ErrorTexts, 'mailNotSent'>,
  answer: { alreadySubscribed: boolean; mailed?: boolean },
  form: string,
) {
  if (answer.alreadySubscribed) return notify({ title: n.alreadyTitle, description: n.alreadyText })
  // on the list, but the e-mail that confirms did not go: said, not promised
  notify({
    title: n.successTitle,
    description: answer.mailed === false ? n.mailNotSent : n.successText,
  })
  reportLead(form)
}
