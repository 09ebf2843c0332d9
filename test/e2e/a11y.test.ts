import { describe, expect, inject, it } from 'vitest'
import { PHONE } from './browser'
import { auditAlone, auditEveryPage, type Page } from './axe'

// Every page template in English and Arabic; with the welcome popup, on a phone, signed in.
// (a11y-*.test.ts: the other four languages.)
auditEveryPage(['en', 'ar'])

describe('axe with the welcome popup open', () => {
  it.each(['en', 'ar'])('home in %s', async (lang) => {
    expect(await auditAlone(`/?lang=${lang}`, PHONE, { popup: true })).toEqual([])
  })
})

describe('axe on a phone', () => {
  it.each(['en', 'ar'])('home in %s', async (lang) => {
    expect(await auditAlone(`/?lang=${lang}`, PHONE)).toEqual([])
  })
})

describe('axe signed in', () => {
  /** A new account, signed in, with an authenticator app being set up (QR code shown). */
  const signedInSettingUp = async (page: Page) => {
    const origin = {
      Origin: inject('baseURL'),
      'CF-Connecting-IP': `10.9.${Math.floor(Math.random() * 250)}.1`,
    }
    await page.request.post('/auth/sign-up', {
      form: {
        email: `axe-${crypto.randomUUID().slice(0, 8)}@example.org`,
        password: 'correct horse 1',
        // the token the page's widget puts in the form (the Turnstile stand-in's)
        'cf-turnstile-response': 'XXXX.DUMMY.TOKEN.XXXX',
      },
      headers: origin,
    })
    expect(
      ((await (await page.request.get('/auth/session')).json()) as { signedIn: boolean }).signedIn,
    ).toBe(true)
    const setUp = await page.request.post('/auth/factors', { form: {}, headers: origin })
    expect(new URL(setUp.url()).pathname).toBe('/account')
    expect(await setUp.text()).toContain('class="qr-code')
  }
  it.each(['en', 'ar'])('the account page with a QR code in %s', async (lang) => {
    expect(
      await auditAlone(`/account?lang=${lang}`, PHONE, { prepare: signedInSettingUp }),
    ).toEqual([])
  })
})
