import type {
  InputHTMLAttributes,
  ReactNode,
  SelectHTMLAttributes,
  TextareaHTMLAttributes,
} from 'react'

export const inputClass =
  'w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-ink-900 aria-[invalid=true]:border-red-600'
export const labelClass = 'mb-1 block text-sm font-medium text-ink-700'

/**
 * A labelled input with its hint and its error message tied to it for screen readers.
 * Used by the islands' forms and the server-only sign-in and account forms alike.
 */
export function Field({
  id,
  label,
  hint,
  error,
  className = '',
  inputClassName = '',
  ...input
}: {
  id: string
  label: string
  /** A standing rule or tip shown under the input. */
  hint?: string
  error?: string
  /** Wrapper classes. */
  className?: string
  /** Classes added to the input's own. */
  inputClassName?: string
} & InputHTMLAttributes<HTMLInputElement>) {
  const describedBy = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ')
  return (
    <div className={className}>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <input
        id={id}
        type="text"
        className={inputClassName ? `${inputClass} ${inputClassName}` : inputClass}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        {...input}
      />
      {hint && (
        <p id={`${id}-hint`} className="m-0 mt-1 text-xs text-ink-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="m-0 mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  )
}

/**
 * A labelled textarea with the note under it (a standing hint, or a count that follows the
 * typing: `noteId`, `noteClassName`) and its error, both tied to it for screen readers.
 */
export function TextAreaField({
  id,
  label,
  note,
  noteId = `${id}-hint`,
  noteClassName = 'text-ink-600',
  error,
  inputClassName = '',
  ...textarea
}: {
  id: string
  label: string
  note?: ReactNode
  noteId?: string
  noteClassName?: string
  error?: string
  /** Classes added to the textarea's own. */
  inputClassName?: string
} & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const describedBy = [note !== undefined && noteId, error && `${id}-error`]
    .filter(Boolean)
    .join(' ')
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <textarea
        id={id}
        className={inputClassName ? `${inputClass} ${inputClassName}` : inputClass}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        {...textarea}
      />
      {note !== undefined && (
        <p id={noteId} className={`m-0 mt-1 text-xs ${noteClassName}`}>
          {note}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="m-0 mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  )
}

/** A labelled select; `placeholder` is the empty first choice (disabled when required). */
export function SelectField({
  id,
  label,
  placeholder,
  options,
  error,
  ...select
}: {
  id: string
  label: string
  placeholder: string
  options: { value: string; label: string }[]
  error?: string
} & SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <select
        id={id}
        defaultValue=""
        className={inputClass}
        aria-invalid={error ? true : undefined}
        {...select}
      >
        <option value="" disabled={select.required}>
          {placeholder}
        </option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  )
}

/** Bots fill every field; people never see this one (SPEC-free abuse control). */
export function Honeypot({ label }: { label: string }) {
  return (
    <div aria-hidden="true" className="absolute -start-[9999px] h-px w-px overflow-hidden">
      <label>
        {label}
        <input type="text" name="website" tabIndex={-1} autoComplete="off" defaultValue="" />
      </label>
    </div>
  )
}

export function Spinner() {
  return (
    <svg className="h-5 w-5 animate-spin" viewBox="0 0 24 24" aria-hidden="true">
      <circle
        cx="12"
        cy="12"
        r="10"
        fill="none"
        stroke="currentColor"
        strokeOpacity=".3"
        strokeWidth="3"
      />
      <path
        d="M22 12a10 10 0 0 0-10-10"
        fill="none"
        stroke="currentColor"
        strokeWidth="3"
        strokeLinecap="round"
      />
    </svg>
  )
}

/** Name and e-mail, as every lead form asks for them, plus the honeypot. */
export function PersonFields({
  prefix,
  labels,
  errors,
}: {
  prefix: string
  labels: { name: string; email: string; honeypot: string }
  errors: Record<string, string>
}) {
  return (
    <>
      <Field
        id={`${prefix}-name`}
        name="name"
        label={labels.name}
        autoComplete="name"
        required
        maxLength={100}
        error={errors.name}
      />
      <Field
        id={`${prefix}-email`}
        name="email"
        type="email"
        label={labels.email}
        autoComplete="email"
        required
        maxLength={254}
        error={errors.email}
      />
      <Honeypot label={labels.honeypot} />
    </>
  )
}

/** A form's submit button: disabled with a spinner while the form is being sent. */
export function SubmitButton({
  busy,
  label,
  busyLabel,
  icon,
  className = 'btn-primary w-full',
}: {
  busy: boolean
  label: string
  busyLabel: string
  icon?: React.ReactNode
  className?: string
}) {
  return (
    <button
      type="submit"
      disabled={busy}
      aria-busy={busy || undefined}
      className={`${className} disabled:cursor-wait disabled:opacity-80`}
    >
      {busy ? <Spinner /> : icon}
      {busy ? busyLabel : label}
    </button>
  )
}
