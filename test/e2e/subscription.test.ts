import { describe, expect, it } from 'vitest'
import ar from '../../locales/ar.json'
import en from '../../locales/en.json'
import { PHONE, useBrowser } from './browser'
import { query } from './d1'
import { inboxURL, mailTo } from './inbox'

// Double opt-in and unsubscribing, as a visitor lives them: the popup, the local inbox, the
// confirmation page, the welcome e-mail, its unsubscribe link. Then a data request.

const { open } = useBrowser()
const unique = (tag: string) => `${tag}-${crypto.randomUUID().slice(0, 8)}@example.org`
const DICTS = { en, ar }

/** The link of an e-mail's text part that starts with `prefix`. */
const linkOf = (text: string | undefined, prefix: string) =>
  text?.match(new RegExp(`${prefix.replace(/[.?]/g, '\\$&')}\\S+`))?.[0] ?? ''

const status = async (email: string) =>
  (await query<{ status: string }>(`SELECT status FROM subscribers WHERE email = '${email}'`))[0]
    ?.status

describe.each(['en', 'ar'] as const)('subscribing and unsubscribing in %s', (lang) => {
  const t = DICTS[lang]

  it('popup sign-up, the e-mail, confirm, then unsubscribe from the next marketing e-mail', async () => {
    const email = unique(`optin-${lang}`)
    const page = await open(`/?lang=${lang}`, {
      welcome: true,
      viewport: lang === 'ar' ? PHONE : undefined,
    })
    const dialog = page.locator('#welcome-popup')
    await dialog.waitFor({ state: 'visible', timeout: 15_000 })
    await page.waitForSelector('#welcome-popup [data-island][data-hydrated=done]', {
      state: 'attached',
    })
    await dialog.getByLabel(t.popup.name).fill('Nadia')
    await dialog.getByLabel(t.popup.email).fill(email)
    await dialog.getByRole('button', { name: t.popup.submit }).click()
    await dialog.getByRole('status').filter({ hasText: t.popup.thanks_title }).waitFor()
    expect(await status(email)).toBe('pending')

    // the e-mail: the guide and the confirmation link, in the visitor's language
    const optin = await mailTo(email, new RegExp(t.mail.optin_subject))
    const site = new URL(page.url()).origin
    if (lang === 'en') {
      // read as a mail client shows it: the HTML part's button
      await page.goto(`${inboxURL()}/api/email/${optin.id}/html`)
      await page.getByRole('link', { name: t.mail.optin_action }).click()
    } else {
      await page.goto(linkOf(optin.text, `${site}/subscribe/confirm?token=`))
    }
    await page.waitForURL((url) => url.pathname === '/subscribe/confirm')
    expect(await page.locator('html').getAttribute('dir')).toBe(lang === 'ar' ? 'rtl' : 'ltr')
    expect(await page.locator('h1').textContent()).toBe(t.subscription.confirm_title)
    expect(await status(email)).toBe('pending')
    await page.getByRole('button', { name: t.subscription.confirm_button }).click()
    await page.locator('h1', { hasText: t.subscription.confirmed_title }).waitFor()
    expect(await status(email)).toBe('confirmed')

    // the welcome, the first marketing e-mail, and its unsubscribe link
    const welcome = await mailTo(email, new RegExp(t.mail.welcome_subject))
    expect(welcome.headers.find((h) => h.key === 'list-unsubscribe-post')?.value).toBe(
      'List-Unsubscribe=One-Click',
    )
    if (lang === 'en') {
      await page.goto(`${inboxURL()}/api/email/${welcome.id}/html`)
      await page.getByRole('link', { name: t.mail.unsubscribe }).click()
    } else {
      await page.goto(linkOf(welcome.text, `${site}/unsubscribe?token=`))
    }
    await page.waitForURL((url) => url.pathname === '/unsubscribe')
    expect(await page.locator('h1').textContent()).toBe(t.subscription.unsubscribe_title)
    await page.getByRole('button', { name: t.subscription.unsubscribe_button }).click()
    await page.locator('h1', { hasText: t.subscription.unsubscribed_title }).waitFor()
    expect(await status(email)).toBe('unsubscribed')
    await page.context().close()
  })
})

describe.each(['en', 'ar'] as const)('a data request from the privacy policy in %s', (lang) => {
  const t = DICTS[lang]

  it('asks on the page, follows the e-mailed link, and erases', async () => {
    const email = unique(`erase-${lang}`)
    const page = await open(`/privacy-policy?lang=${lang}`)
    await page.getByRole('link', { name: t.privacy_request.policy_link }).click()
    await page.waitForURL((url) => url.pathname === '/privacy/request')
    expect(await page.locator('h1').textContent()).toBe(t.privacy_request.title)
    await page.getByRole('main').getByLabel(t.privacy_request.email_label).fill(email)
    await page.getByRole('button', { name: t.privacy_request.submit }).click()
    await page.locator('h1', { hasText: t.privacy_request.sent_title }).waitFor()

    // "send me my data" (the default choice): the link leads to a download
    const exportMail = await mailTo(email, new RegExp(t.mail.data_export_subject))
    const site = new URL(page.url()).origin
    await page.goto(linkOf(exportMail.text, `${site}/privacy/data?token=`))
    expect(await page.locator('h1').textContent()).toBe(t.privacy_request.export_title)
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: t.privacy_request.download_button }).click(),
    ])
    const file = JSON.parse(
      await new Response((await download.createReadStream()) as unknown as ReadableStream).text(),
    )
    expect(file.email).toBe(email)
    expect(file.emails.map((m: { kind: string }) => m.kind)).toEqual(['data_request'])

    // then "erase my data"; the form asks for the address again
    await page.goto(`/privacy/request`)
    await page.getByRole('main').getByLabel(t.privacy_request.email_label).fill(email)
    await page.getByLabel(t.privacy_request.erase).check()
    await page.getByRole('button', { name: t.privacy_request.submit }).click()
    await page.locator('h1', { hasText: t.privacy_request.sent_title }).waitFor()
    const eraseMail = await mailTo(email, new RegExp(t.mail.data_erase_subject))
    await page.goto(linkOf(eraseMail.text, `${site}/privacy/data?token=`))
    await page.getByRole('button', { name: t.privacy_request.erase_button }).click()
    await page.locator('h1', { hasText: t.privacy_request.erased_title }).waitFor()
    expect(await query(`SELECT id FROM mail_outbox WHERE to_address = '${email}'`)).toEqual([])
    await page.context().close()
  })
})
