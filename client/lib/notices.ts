/** A toast notice (SPEC §8 wording); `destructive` ones are announced assertively. */
export type Notice = { title: string; description?: string; variant?: 'default' | 'destructive' }

export const NOTICE_EVENT = 'app:notice'

/** Shows a notice; the one before it, if still up, is replaced (one at a time, SPEC §9). */
export function notify(notice: Notice) {
  document.dispatchEvent(new CustomEvent<Notice>(NOTICE_EVENT, { detail: notice }))
}
