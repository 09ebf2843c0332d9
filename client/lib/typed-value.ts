import { createContext, useContext, useLayoutEffect, useState } from 'react'

/**
 * What a person typed into a field before its island hydrated: on a slow phone the page's HTML
 * is there seconds before its script, and a controlled field's first render after hydration
 * would write the server's value over it. An island whose state holds a field's value starts
 * that state from here, so the field, its counter and its preview keep what was typed.
 * Undefined on the server, and for a field that is not on the page or not changed.
 */
function typedValue(id: string): string | undefined {
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

/** The island's marker in the page while it hydrates (client/entry.ts); null on the server. */
export const IslandRoot = createContext<HTMLElement | null>(null)

/**
 * The value of the radio button of `name` chosen before hydration inside this island: a hook,
 * since a page may hold two of the same island (the booking page and its dialog).
 */
function useTypedChoice(name: string): string | undefined {
  const root = useContext(IslandRoot)
  const chosen = root?.querySelector<HTMLInputElement>(
    `input[type=radio][name="${CSS.escape(name)}"]:checked`,
  )
  return chosen && !chosen.defaultChecked ? chosen.value : undefined
}

/**
 * A field's value as state: the server's value in the render that hydrates (the same HTML, or
 * React would throw the server's away), then at once, before the browser paints, what was typed
 * into the field before the script came (read while hydrating, before React writes the field).
 */
export function useTypedState(id: string, serverValue: string) {
  const [typed] = useState(() => typedValue(id))
  const [value, setValue] = useState(serverValue)
  useLayoutEffect(() => {
    // one render more, once, right after hydrating: the render that hydrates must be the server's
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (typed !== undefined) setValue(typed)
  }, [typed])
  return [value, setValue] as const
}

/** The same for a radio group's choice inside this island (the booking form's time). */
export function useTypedChoiceState(name: string) {
  const [typed] = useState(useTypedChoice(name))
  const [value, setValue] = useState('')
  useLayoutEffect(() => {
    // one render more, once, right after hydrating: the render that hydrates must be the server's
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (typed !== undefined) setValue(typed)
  }, [typed])
  return [value, setValue] as const
}
