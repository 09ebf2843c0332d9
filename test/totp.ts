import { TOTP } from 'otpauth'

/** The code an authenticator app shows `steps` 30-second steps from now. */
export const codeFor = (secret: string, steps = 0) =>
  new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 }).generate({
    timestamp: Date.now() + steps * 30_000,
  })
