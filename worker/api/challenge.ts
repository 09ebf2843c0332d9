import type { Context } from 'hono'
import type { Mode } from './forms'
import { formResult } from '../components/form-result'
import type { AppEnv } from '../env'
import type { MessageKey } from '../i18n/translator'
import {
  challengeSettings,
  tokenOf,
  verifyChallenge,
  type ChallengeAction,
  type ChallengeRefusal,
} from '../challenge/turnstile'

/** What each refusal tells the visitor (their form stays as typed). */
export const REFUSAL_TEXT: Record<ChallengeRefusal, MessageKey> = {
  missing: 'errors.challenge_missing',
  invalid: 'errors.challenge_failed',
  hostname: 'errors.challenge_failed',
  action: 'errors.challenge_failed',
  duplicate: 'errors.challenge_expired',
  unavailable: 'errors.challenge_unavailable',
  unconfigured: 'errors.challenge_unavailable',
}

export type FormCheck =
  | { ok: true; checked: boolean }
  | { ok: false; res: Response | Promise<Response> }

/**
 * A lead form's post against the challenge. With a token: checked, or refused with a clear
 * answer in the visitor's language (403, never a 5xx). A form the browser posted without a
 * token (no JavaScript) is `checked: false`: a lead form adds it, marked, changes no row that
 * exists and e-mails nothing to its address; a booking takes no slot (docs/bots.md). An island
 * always sends one, so JSON without a token is refused.
 */
export async function checkForm(
  c: Context<AppEnv>,
  mode: Mode,
  data: Record<string, unknown>,
  action: ChallengeAction,
): Promise<FormCheck> {
  const token = tokenOf(data)
  if (mode === 'form' && !token && challengeSettings(c.env).enabled)
    return { ok: true, checked: false }
  const result = await verifyChallenge(c, token, action)
  if (result.ok) return { ok: true, checked: true }
  const error = c.var.t(REFUSAL_TEXT[result.reason])
  return {
    ok: false,
    res:
      mode === 'json'
        ? c.json({ error, challenge: result.reason }, 403)
        : formResult(c, 403, c.var.t('notices.error_title'), error),
  }
}
