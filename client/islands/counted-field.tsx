import { TextAreaField } from '../components/field'
import { defineIsland } from '../island'
import { pluralForm, type PluralForms } from '../lib/plural'
import { useTypedState } from '../lib/typed-value'

export type CountedFieldProps = {
  name: string
  id: string
  label: string
  value: string
  min: number
  max: number
  /** "{{n}} characters (between 50 and 160)" in each plural form; {{n}} filled in as one types. */
  countForms: PluralForms
  /** The desk's language, which the count is written in (`lang` is the text's). */
  countLang: string
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
  // what was typed before the script came, else the saved text (lib/typed-value.ts)
  const [text, setText] = useTypedState(props.id, props.value)
  const n = [...text.trim()].length
  const outside = n < props.min || n > props.max
  return (
    <TextAreaField
      id={props.id}
      name={props.name}
      label={props.label}
      lang={props.lang}
      dir={props.dir}
      rows={3}
      required
      value={text}
      onChange={(e) => setText(e.target.value)}
      note={props.countForms[pluralForm(props.countLang, n, props.countForms)]!.replace(
        '{{n}}',
        String(n),
      )}
      noteId={`${props.id}-count`}
      noteClassName={outside ? 'font-semibold text-red-700' : 'text-ink-600'}
      error={props.error}
    />
  )
}

export default defineIsland('counted-field', CountedField, 'load')
