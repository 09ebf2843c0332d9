import { notify } from '../lib/notices'

const TOKEN_FIELD = 'cf-turnstile-response'

/**
 * Forms the browser posts itself and that e-mail the address typed in them (worker/components/
 * challenge.tsx marks them): on submit, a fresh Turnstile token goes into the form, then the
 * form is sent on as it would have been. The islands do the same in their own code.
 */
export function enhanceChallengeForms() {
  document.addEventListener(
    'submit',
    (event) => {
      const form = event.target
      if (!(form instanceof HTMLFormElement)) return
      const { challenge: action, challengeKey, challengeScript, challengeError } = form.dataset
      if (!action || !challengeKey || !challengeScript || form.dataset.challengeToken) return
      event.preventDefault()
      if (form.getAttribute('aria-busy') === 'true') return
      const submitter = (event as SubmitEvent).submitter
      const slot = form.querySelector<HTMLElement>('[data-challenge-slot]') ?? form
      form.setAttribute('aria-busy', 'true')
      // the challenge's code comes with the first send: most visits send nothing
      import('../lib/challenge')
        .then(({ challengeToken }) =>
          challengeToken({ siteKey: challengeKey, scriptUrl: challengeScript }, action, slot),
        )
        .then((token) => {
          let input = form.querySelector<HTMLInputElement>(`input[name="${TOKEN_FIELD}"]`)
          if (!input) {
            input = document.createElement('input')
            input.type = 'hidden'
            input.name = TOKEN_FIELD
            form.append(input)
          }
          input.value = token
          // this submit passes through: the token is spent by one post
          form.dataset.challengeToken = '1'
          form.requestSubmit(submitter && form.contains(submitter) ? submitter : null)
          delete form.dataset.challengeToken
        })
        .catch(() => notify({ title: challengeError ?? '', variant: 'destructive' }))
        .finally(() => form.removeAttribute('aria-busy'))
    },
    true,
  )
}
