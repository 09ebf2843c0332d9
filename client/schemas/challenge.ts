import * as v from 'valibot'

/**
 * The Turnstile token a form sends with its fields: `challengeToken` in an island's JSON, the
 * widget's own hidden `cf-turnstile-response` in a form posted by the browser. The worker
 * checks it (worker/challenge/turnstile.ts); siteverify refuses anything over 2048 characters.
 */
const token = v.optional(v.pipe(v.string('invalid'), v.maxLength(4096, 'invalid')))

export const challengeFields = { challengeToken: token, 'cf-turnstile-response': token }
