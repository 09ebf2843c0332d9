import type { FormEvent } from 'react'
import { Field, labelClass, PersonFields, SelectField, SubmitButton } from '../components/field'
import { Icon } from '../components/icon'
import { defineIsland } from '../island'
import { notify } from '../lib/notices'
import { reportLead } from '../lib/trackers'
import { formValues, useLeadForm, type ErrorTexts, validateInScript } from '../lib/use-lead-form'

type Option = { value: string; label: string }

export type ContactFormProps = {
  labels: {
    name: string
    email: string
    company: string
    service: string
    servicePlaceholder: string
    budget: string
    budgetPlaceholder: string
    message: string
    messagePlaceholder: string
    privacy: string
    submit: string
    sending: string
    honeypot: string
    successTitle: string
    successText: string
    sendAnother: string
  }
  services: Option[]
  budgets: Option[]
  notices: ErrorTexts & { missingText: string; sentTitle: string; sentText: string }
}

const controlClass =
  'w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-ink-900 aria-[invalid=true]:border-red-600'

/** The contact page form: validated here for quick answers, and again by the worker. */
function ContactForm({ labels, services, budgets, notices }: ContactFormProps) {
  const form = useLeadForm(notices)
  const err = form.fieldErrors

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const values = formValues(event.currentTarget)
    if (!values.name?.trim() || !values.email?.trim() || !values.service || !values.message?.trim())
      return form.missing(notices.missingText)
    await form.submit('/api/contact', values, () => {
      notify({ title: notices.sentTitle, description: notices.sentText })
      reportLead('contact')
    })
  }

  if (form.state === 'success')
    return (
      <div className="mt-6 rounded-xl bg-brand-50 p-6" role="status">
        <Icon name="check" className="h-8 w-8 text-brand-700" />
        <p className="m-0 mt-3 text-xl font-bold text-ink-900">{labels.successTitle}</p>
        <p className="m-0 mt-2 text-ink-700">{labels.successText}</p>
        <button type="button" onClick={form.reset} className="btn-ghost mt-5">
          {labels.sendAnother}
        </button>
      </div>
    )

  const busy = form.state === 'submitting'
  return (
    <form
      ref={validateInScript}
      method="post"
      action="/api/contact"
      onSubmit={onSubmit}
      className="relative mt-6 grid gap-4 sm:grid-cols-2"
    >
      <PersonFields prefix="contact" labels={labels} errors={err} />
      <Field
        id="contact-company"
        name="company"
        label={labels.company}
        maxLength={120}
        autoComplete="organization"
        error={err.company}
      />
      <SelectField
        id="contact-service"
        name="service"
        required
        label={labels.service}
        placeholder={labels.servicePlaceholder}
        options={services}
        error={err.service}
      />
      <div className="sm:col-span-2">
        <SelectField
          id="contact-budget"
          name="budget"
          label={labels.budget}
          placeholder={labels.budgetPlaceholder}
          options={budgets}
        />
      </div>
      <div className="sm:col-span-2">
        <label htmlFor="contact-message" className={labelClass}>
          {labels.message}
        </label>
        <textarea
          id="contact-message"
          name="message"
          required
          rows={6}
          maxLength={5000}
          placeholder={labels.messagePlaceholder}
          aria-invalid={err.message ? true : undefined}
          aria-describedby={err.message ? 'contact-message-error' : undefined}
          className={controlClass}
        />
        {err.message && (
          <p id="contact-message-error" className="m-0 mt-1 text-sm text-red-700">
            {err.message}
          </p>
        )}
      </div>
      <p className="m-0 text-sm text-ink-600 sm:col-span-2">{labels.privacy}</p>
      <SubmitButton
        busy={busy}
        label={labels.submit}
        busyLabel={labels.sending}
        className="btn-primary sm:col-span-2 sm:justify-self-start"
      />
    </form>
  )
}

export default defineIsland('contact-form', ContactForm)
