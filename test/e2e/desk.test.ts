import { describe, expect, it } from 'vitest'
import { LANGS } from '../../client/lib/languages'
import en from '../../locales/en.json'
import { seriousViolationsOn } from './axe'
import { PHONE, useBrowser } from './browser'
import { query } from './d1'
import { mailTo } from './inbox'
import { claimSlot } from './slot-claims'
import { signInStaff } from './staff'

// The agency's desk as staff use it: a second factor, the leads inbox, a lead, a booking, CSV.

const { open } = useBrowser()
const LONG_URL = `https://example.com/${'catalogue/'.repeat(8)}${'a'.repeat(40)}`
const t = en

describe('the agency desk', () => {
  it('staff sign in with a second factor, work a lead, cancel a booking and export CSV', async () => {
    const visitor = `e2e-lead-${crypto.randomUUID().slice(0, 6)}@example.org`

    // a lead and a booking from a visitor
    const page = await open('/auth?mode=sign-up')
    const origin = new URL(page.url()).origin
    // as the site's islands post, with the token their widget gets (the Turnstile stand-in's)
    const post = (path: string, body: Record<string, unknown>) =>
      page.request.post(origin + path, {
        data: path === '/api/contact' ? body : { ...body, challengeToken: 'XXXX.DUMMY.TOKEN.XXXX' },
        headers: { Origin: origin },
      })
    expect(
      (
        await post('/api/contact', {
          name: 'Lena Lead',
          email: visitor,
          service: 'shopify',
          // a pasted link: the lead's page wraps it on a phone
          message: `Our Shopify store needs help with ads. ${LONG_URL}`,
        })
      ).status(),
    ).toBe(200)
    const { slots } = (await (await page.request.get(origin + '/api/bookings/slots')).json()) as {
      slots: string[]
    }
    // not the first few: between listing and posting, the minimum notice can pass them by
    const later = slots.slice(3)
    const slot = claimSlot(later, { random: true })
    expect(
      (
        await post('/api/bookings', { name: 'Lena Lead', email: visitor, slot, timeZone: 'UTC' })
      ).status(),
    ).toBe(200)
    // another, with a link in its notes and a long address, still there at the end
    const other = claimSlot(later, { random: true })
    const notes = { name: 'Noel Notes', email: `e2e-notes-${visitor.slice(9)}`, notes: LONG_URL }
    expect((await post('/api/bookings', { ...notes, slot: other, timeZone: 'UTC' })).status()).toBe(
      200,
    )

    // a staff account with a second factor, signed in
    const staff = await signInStaff(page)

    // filter the inbox to the lead, open it, mark it handled with a note
    await page.getByLabel(t.desk.kind).selectOption('contact')
    await page.getByLabel(t.desk.search).fill(visitor)
    await page.getByRole('button', { name: t.desk.apply }).click()
    await page.waitForURL((url) => url.searchParams.get('kind') === 'contact')
    await page.getByRole('link', { name: 'Lena Lead' }).click()
    await page.waitForURL(/\/desk\/leads\/contact\/\d+/)
    const leadPath = new URL(page.url()).pathname
    await page.getByLabel(t.desk.handled).check()
    await page.getByLabel(t.desk.note).fill('Called, sending a proposal')
    await page.getByRole('button', { name: t.desk.save }).click()
    await page.getByRole('status').filter({ hasText: t.desk.saved }).waitFor()
    expect(
      await query(
        `SELECT note FROM lead_marks WHERE handled_at IS NOT NULL AND note = 'Called, sending a proposal'`,
      ),
    ).toHaveLength(1)

    // export the filtered view as CSV
    await page.goto(`/desk?kind=contact&q=${encodeURIComponent(visitor)}`)
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: t.desk.export }).click(),
    ])
    const csv = await new Response(
      (await download.createReadStream()) as unknown as ReadableStream,
    ).text()
    expect(csv.split('\r\n')[0]).toMatch(/^created_at,kind,id,name,email/)
    expect(csv).toContain(visitor)
    expect(csv).toContain('Called, sending a proposal')

    // cancel the booking: the visitor is told by e-mail
    await page.getByRole('link', { name: t.desk.nav.bookings }).click()
    await page.waitForURL((url) => url.pathname === '/desk/bookings')
    const card = page.locator('li', { hasText: visitor })
    await card.getByText(t.desk_bookings.cancel).click()
    await card.getByRole('button', { name: t.desk_bookings.cancel_confirm }).click()
    await page.getByRole('status').filter({ hasText: t.desk_bookings.done.cancelled }).waitFor()
    const mail = await mailTo(visitor, /cancelled/)
    expect(mail.text).toContain('/book')
    expect(await query(`SELECT id FROM bookings WHERE email = '${visitor}'`)).toEqual([])
    expect(
      (
        await query<{ action: string }>(
          `SELECT action FROM desk_audit WHERE actor_email = '${staff}' AND action != 'desk.sign_in' ORDER BY id`,
        )
      ).map((r) => r.action),
    ).toEqual(['lead.mark', 'leads.export', 'booking.cancel'])

    // every desk page, in English and Arabic, as axe reads it; the Speed page with figures to draw
    const vital = (path: string, metric: string, value: number, rating: string) =>
      `('web_vital', '${JSON.stringify([path, 'en', 'NG', 'LOS', '', 'mobile', 'human', 'signed-out', '', metric, rating, 'v1'])}', '${JSON.stringify([200, 0, 1, value])}')`
    await query(
      `INSERT INTO dev_analytics (index1, blobs, doubles) VALUES ${[
        vital('/', 'LCP', 2100, 'good'),
        vital('/pricing', 'LCP', 4600, 'poor'),
        vital('/', 'INP', 320, 'needs-improvement'),
        vital('/', 'CLS', 0.02, 'good'),
      ].join(', ')}`,
    )
    const paths = ['/desk', '/desk/bookings', '/desk/mail', '/desk/visits', '/desk/speed', leadPath]
    expect(
      await seriousViolationsOn(
        page,
        ['en', 'ar'].flatMap((lang) => paths.map((path) => `${path}?lang=${lang}`)),
      ),
    ).toEqual([])

    // on a phone, in every language, the desk's bar holds the mark, the language and Sign Out
    // on one line and inside the screen (Sign Out broke over two lines, or off the edge), and a
    // pasted link in a lead or a booking's notes wraps (those pages were 1,300 px wide)
    await page.setViewportSize(PHONE)
    const bar = []
    for (const lang of LANGS)
      for (const path of ['/desk/bookings', leadPath]) {
        await page.goto(`${path}?lang=${lang}`)
        const signOut = page.locator('header form[action="/auth/sign-out"] button')
        const box = (await signOut.boundingBox())!
        bar.push({
          page: `${path} ${lang}`,
          oneLine: box.height < 40,
          inside: box.x >= 0 && box.x + box.width <= PHONE.width,
          scrolls: await page.evaluate(() => document.documentElement.scrollWidth > innerWidth),
        })
      }
    expect(bar.filter((p) => !p.oneLine || !p.inside || p.scrolls)).toEqual([])
    await page.goto('/desk/bookings')
    expect(await page.getByText('Noel Notes').count()).toBe(1)
    await page.context().close()
  })
})
