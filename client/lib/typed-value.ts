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
 * A value kept as state: the server's in the render that hydrates (the same HTML, or React would
 * throw the server's away), then at once, before the browser paints, what `typed` read while
 * hydrating (before React writes the field), if anything.
 */
function useKept(typed: () => string | undefined, serverValue: string) {
  const [kept] = useState(typed)
  const [value, setValue] = useState(serverValue)
  useLayoutEffect(() => {
    // one render more, once, right after hydrating: the render that hydrates must be the server's
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (kept !== undefined) setValue(kept)
  }, [kept])
  return [value, setValue] as const
}

/** A field's value as state, keeping what was typed into the field `id` before hydration. */
export const useTypedState = (id: string, serverValue: string) =>
  useKept(() => typedValue(id), serverValue)

/**
 * A radio group's choice as state, keeping the one made in this island before hydration (a
 * page may hold two of the same island: the booking page and its dialog).
 */
export function useTypedChoiceState(name: string) {
  const root = useContext(IslandRoot)
  return useKept(() => {
    const chosen = root?.querySelector<HTMLInputElement>(
      `input[type=radio][name="${CSS.escape(name)}"]:checked`,
    )
    return chosen && !chosen.defaultChecked ? chosen.value : undefined
  }, '')
}
