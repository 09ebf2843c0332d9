import { useState } from 'react'
import { labelClass } from '../components/field'
import { defineIsland } from '../island'

export type CountedFieldProps = {
  name: string
  id: string
  label: string
  value: string
  min: number
  max: number
  /** "{{n}} characters, 50 to 160": the count's words, {{n}} filled in as one types. */
  countText: string
  error?: string
  lang: string
  dir: 'ltr' | 'rtl'
}

/**
 * A text with a length to keep (a meta description's 50 to 160 characters): the count under
 * it follows the typing, and says when it is outside the range. Without JavaScript, the count
 * of the saved text.
 */
function CountedField(props: CountedFieldProps) {
  const [text, setText] = useState(props.value)
  const n = [...text.trim()].length
  const outside = n < props.min || n > props.max
  return (
    <div>
      <label htmlFor={props.id} className={labelClass}>
        {props.label}
      </label>
      <textarea
        id={props.id}
        name={props.name}
        lang={props.lang}
        dir={props.dir}
        rows={3}
        required
        value={text}
        onChange={(e) => setText(e.target.value)}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={`${props.id}-count${props.error ? ` ${props.id}-error` : ''}`}
        className="w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-ink-900 aria-[invalid=true]:border-red-600"
      />
      <p
        id={`${props.id}-count`}
        className={`m-0 mt-1 text-xs ${outside ? 'font-semibold text-red-700' : 'text-ink-600'}`}
      >
        {props.countText.replace('{{n}}', String(n))}
      </p>
      {props.error && (
        <p id={`${props.id}-error`} className="m-0 mt-1 text-sm text-red-700">
          {props.error}
        </p>
      )}
    </div>
  )
}

export default defineIsland('counted-field', CountedField, 'load')
