import type { ChallengeAction, ChallengeProps } from '../challenge/turnstile'
import type { Translator } from '../i18n/translator'

/**
 * What a form the browser posts itself (sign-up, sign-in link, password reset, data request)
 * carries for its challenge: client/enhance/challenge.ts reads these attributes, puts a fresh
 * token in the form and sends it on. Without JavaScript the form posts without one.
 */
export function challengeAttrs(challenge: ChallengeProps, t: Translator, action: ChallengeAction) {
  return challenge
    ? {
        'data-challenge': action,
        'data-challenge-key': challenge.siteKey,
        'data-challenge-script': challenge.scriptUrl,
        'data-challenge-error': t('errors.challenge_script'),
      }
    : {}
}

/** Where the widget draws itself inside the form, should Cloudflare want the visitor. */
export function ChallengeSlot() {
  return <div data-challenge-slot="" className="empty:hidden" />
}
