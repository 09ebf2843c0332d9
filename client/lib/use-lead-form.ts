import { useState } from 'react'
import { notify } from './notices'
import { postLead, type LeadAnswer } from './post-lead'
import { reportLead } from './trackers'

export type FormState = 'idle' | 'submitting' | 'success'

/** Error notice wording every lead form shares (SPEC §8). */
export type ErrorTexts = { errorTitle: string; errorGeneric: string; missingTitle: string }

/** Hydrated, the island validates itself (SPEC §5's notices) instead of the browser. */
export const validateInScript = (form: HTMLFormElement | null) => {
  if (form) form.noValidate = true
}

/**
 * State of a lead form: idle → submitting → success. The server markup validates natively
 * (no JavaScript); once hydrated the island validates itself to show SPEC §5's notices.
 */
export function useLeadForm(texts: ErrorTexts) {
  const [state, setState] = useState<FormState>('idle')
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({})

  function missing(text: string) {
    notify({ title: texts.missingTitle, description: text, variant: 'destructive' })
  }

  async function submit<T>(
    url: string,
    body: unknown,
    onSuccess: (data: T) => void,
    onError?: (answer: Extract<LeadAnswer<T>, { ok: false }>) => void,
  ) {
    setState('submitting')
    setFieldErrors({})
    const answer = await postLead<T>(url, body)
    if (answer.ok) {
      setState('success')
      onSuccess(answer.data)
      return
    }
    setState('idle')
    setFieldErrors(answer.fields ?? {})
    onError?.(answer)
    notify({
      title: texts.errorTitle,
      description: answer.error ?? texts.errorGeneric,
      variant: 'destructive',
    })
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
  n: SubscribeNotices,
  alreadySubscribed: boolean,
  form: string,
) {
  if (alreadySubscribed) return notify({ title: n.alreadyTitle, description: n.alreadyText })
  notify({ title: n.successTitle, description: n.successText })
  reportLead(form)
}
