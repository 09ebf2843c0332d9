import type { EventName } from '../schemas/events'
import { track } from '../lib/events'

/** Clicks on [data-event] elements (WhatsApp, booking) and the widget opening become events. */
export function enhanceEvents() {
  document.addEventListener('click', (event) => {
    const el = (event.target as Element).closest<HTMLElement>('[data-event]')
    if (el) track(el.dataset.event as EventName)
  })
  document.getElementById('consult-widget')?.addEventListener('toggle', (event) => {
    if ((event.target as HTMLDetailsElement).open) track('consultation_widget_open')
  })
}
