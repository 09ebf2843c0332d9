/**
 * Forms the browser posts itself (the desk's, sign-in, the data request): once one is sent,
 * its button says so and is busy, and a second tap or Enter sends nothing. On a slow phone a
 * save with a photo takes a while, and a second tap used to post it again. The islands do the
 * same in their own state (lib/use-lead-form.ts). Without JavaScript a form posts once per tap,
 * as browsers do.
 */

const SENDING = 'data-sending'

/** How long a form that answers with a download (the page stays) keeps its button busy. */
const DOWNLOAD_MS = 4000

/**
 * Marks the form as being sent and its button busy; returns what undoes it. Also for a handler
 * that holds a submit back a moment before sending it again (the social card's drawing).
 */
export function markSending(form: HTMLFormElement, submitter: HTMLElement | null) {
  form.setAttribute(SENDING, '')
  const button =
    submitter ?? form.querySelector<HTMLButtonElement>('button[type=submit], button:not([type])')
  if (!button) return () => form.removeAttribute(SENDING)
  const label = button instanceof HTMLButtonElement ? button.innerHTML : null
  // the busy word of the page's language (layout/document.tsx), unless the button has its own
  const busy = button.dataset.busyLabel ?? document.body.dataset.busyText
  button.setAttribute('aria-busy', 'true')
  // aria-disabled, not disabled: a disabled submitter would drop its name and value from the post
  button.setAttribute('aria-disabled', 'true')
  if (busy && button instanceof HTMLButtonElement) button.textContent = busy
  return () => {
    form.removeAttribute(SENDING)
    button.removeAttribute('aria-busy')
    button.removeAttribute('aria-disabled')
    if (label !== null) button.innerHTML = label
  }
}

export function enhanceBusyForms() {
  const undo = new Set<() => void>()
  document.addEventListener('submit', (event) => {
    const form = event.target
    if (!(form instanceof HTMLFormElement)) return
    // a GET form (a filter, a search) may be sent again at once; an island's own handler or the
    // challenge's (which sends the form again once it has a token) decides for itself
    if (form.method !== 'post' || event.defaultPrevented) return
    if (form.hasAttribute(SENDING)) {
      event.preventDefault()
      return
    }
    const submitter = (event as SubmitEvent).submitter
    const done = markSending(form, submitter)
    undo.add(done)
    // a download, or an answer in another tab, leaves this page as it is: ready again after it
    const target = (submitter as HTMLButtonElement | null)?.formTarget || form.target
    if (form.hasAttribute('data-download') || (target && target !== '_self'))
      setTimeout(() => {
        done()
        undo.delete(done)
      }, DOWNLOAD_MS)
  })
  // back to a page the browser kept (bfcache): its forms are not being sent any more
  window.addEventListener('pageshow', (event) => {
    if (!event.persisted) return
    for (const done of undo) done()
    undo.clear()
  })
}
