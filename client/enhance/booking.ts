import { track } from '../lib/events'
import { openDialog } from './dialogs'

/**
 * Every "book a consultation" link ([data-booking], a plain link to /book without JavaScript)
 * opens the scheduling dialog; its frame is created (from its template) on the first opening only.
 */
export function enhanceBooking() {
  const dialog = document.getElementById('booking-dialog') as HTMLDialogElement | null
  if (!dialog) return
  document.addEventListener('click', (event) => {
    const trigger = (event.target as Element).closest('[data-booking]')
    if (!trigger || (event as MouseEvent).ctrlKey || (event as MouseEvent).metaKey) return
    event.preventDefault()
    const frame = dialog.querySelector<HTMLTemplateElement>('template[data-booking-frame]')
    frame?.replaceWith(frame.content)
    // From the widget, focus comes back to the widget's button (its card closes meanwhile).
    const menu = trigger.closest<HTMLDetailsElement>('details[open]')
    menu?.removeAttribute('open')
    openDialog(dialog, menu?.querySelector('summary') ?? trigger)
    track('booking_opened')
  })
  dialog.addEventListener('click', (event) => {
    if (event.target === dialog) dialog.close()
  })
}
