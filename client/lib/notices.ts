/** A toast notice (SPEC §8 wording); `destructive` ones are announced assertively. */
export type Notice = { title: string; description?: string; variant?: 'default' | 'destructive' }

export const NOTICE_EVENT = 'app:notice'
export const TOAST_EVENT = 'app:toast'

/** The second mechanism's limits (SPEC §9): up to three at once, each 4 s unless told. */
export const TOAST_LIMIT = 3
export const TOAST_MS = 4000

/** Shows a notice; the one before it, if still up, is replaced (one at a time, SPEC §9). */
export function notify(notice: Notice) {
  document.dispatchEvent(new CustomEvent<Notice>(NOTICE_EVENT, { detail: notice }))
}

/**
 * The second notice mechanism (SPEC §9): stacked toasts beside the one-at-a-time store, for
 * news that does not answer what the visitor just did (the connection dropped, came back).
 * Up to three show at once, the oldest giving way to a fourth; each leaves after `duration`
 * (4 s by default), waiting while it is hovered or focused.
 */
export function toast(notice: Notice & { duration?: number }) {
  document.dispatchEvent(new CustomEvent(TOAST_EVENT, { detail: notice }))
}
