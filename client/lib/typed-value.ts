/**
 * What a person typed into a field before its island hydrated: on a slow phone the page's HTML
 * is there seconds before its script, and a controlled field's first render after hydration
 * would write the server's value over it. An island whose state holds a field's value starts
 * that state from here, so the field, its counter and its preview keep what was typed.
 * Undefined on the server, and for a field that is not on the page or not changed.
 */
export function typedValue(id: string): string | undefined {
  if (typeof document === 'undefined') return undefined
  const el = document.getElementById(id)
  if (el instanceof HTMLTextAreaElement || el instanceof HTMLInputElement)
    return el.value !== el.defaultValue ? el.value : undefined
  if (el instanceof HTMLSelectElement) {
    const option = el.selectedOptions[0]
    return option && !option.defaultSelected ? option.value : undefined
  }
  return undefined
}

/** The value of the radio button of `name` chosen before hydration in the form `formId`. */
export function typedChoice(formId: string, name: string): string | undefined {
  if (typeof document === 'undefined') return undefined
  const chosen = document
    .getElementById(formId)
    ?.querySelector<HTMLInputElement>(`input[type=radio][name="${CSS.escape(name)}"]:checked`)
  return chosen && !chosen.defaultChecked ? chosen.value : undefined
}
