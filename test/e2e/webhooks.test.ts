import { Webhook, WebhookVerificationError } from 'standardwebhooks'
import { describe, expect, inject, it } from 'vitest'
import en from '../../locales/en.json'
import type { CaughtDelivery } from '../../scripts/lib/webhook-catcher.mjs'
import { hydrated, island, useBrowser } from './browser'
import { query } from './d1'
import { signInStaff } from './staff'

// Issue 59's "Done when", in Chromium: an Admin adds endpoints to the local webhook catcher
// (scripts/lib/webhook-catcher.mjs, as `npm start` runs it) in /desk/integrations, a visitor
// sends a contact message through the contact form, and its lead.created delivery arrives at
// once, signed so that standardwebhooks verifies it with the secret the desk showed.

const { open } = useBrowser()
const catcher = inject('webhookCatcherURL')
const t = en.desk_integrations
type Page = Awaited<ReturnType<typeof open>>

/** Adds an endpoint through the desk's form; returns the secret it shows once. */
async function addEndpoint(page: Page, url: string, { personal }: { personal: boolean }) {
  await page.goto('/desk/integrations')
  const form = page.getByRole('region', { name: t.add_title }).locator('form')
  await form.getByLabel(t.url, { exact: true }).fill(url)
  await form.getByRole('checkbox', { name: `${t.event_names.lead.created} lead.created` }).check()
  await form.getByRole('radio', { name: t.formats.standard }).check()
  if (personal) await form.getByRole('checkbox', { name: t.personal }).check()
  await form.getByRole('button', { name: t.add_button }).click()
  const shown = page.getByRole('textbox', { name: t.secret.label, exact: true })
  await shown.waitFor()
  expect(await page.getByText(t.secret.once).isVisible()).toBe(true)
  return (await shown.inputValue()).trim()
}

/** The lead.created deliveries of contact message `id` the catcher got at `path`. */
async function deliveriesOf(path: string, id: number) {
  const all = (await (
    await fetch(`${catcher}/api/deliveries?path=${encodeURIComponent(path)}`)
  ).json()) as CaughtDelivery[]
  // the endpoints want every lead.created: the leads other files make meanwhile come too
  return all.filter((d) => {
    const body = JSON.parse(d.body) as { type: string; data: { kind?: string; id?: number } }
    return body.type === 'lead.created' && body.data.kind === 'contact' && body.data.id === id
  })
}

describe('webhooks: a contact message reaches an endpoint', () => {
  it('arrives once within 5 s of the send, verifies with the secret the desk showed, and carries personal fields only where asked', async () => {
    const tag = crypto.randomUUID().slice(0, 8)
    const plainPath = `/e2e-${tag}/crm`
    const personalPath = `/e2e-${tag}/personal`

    const admin = await open('/')
    await signInStaff(admin, 'admin')
    const secret = await addEndpoint(admin, `${catcher}${plainPath}`, { personal: false })
    expect(secret).toMatch(/^whsec_/)
    const personalSecret = await addEndpoint(admin, `${catcher}${personalPath}`, {
      personal: true,
    })
    // the secret is shown once: the endpoint's card shows only its start
    await admin.goto('/desk/integrations')
    expect(await admin.locator('main').textContent()).not.toContain(secret)

    const visitor = await open('/contact')
    await hydrated(visitor)
    const form = await island(visitor, 'contact-form')
    const email = `webhook-${tag}@example.org`
    const message = `Our shop needs a faster checkout (${tag}).`
    await form.getByLabel(en.contact.name).fill('Wanda Hook')
    await form.getByLabel(en.contact.email).fill(email)
    await form.getByLabel(en.contact.service).selectOption('shopify')
    await form.getByLabel(en.contact.message).fill(message)
    const [answer] = await Promise.all([
      visitor.waitForResponse((r) => new URL(r.url()).pathname === '/api/contact'),
      form.getByRole('button', { name: en.contact.submit }).click(),
    ])
    const answeredAt = Date.now()
    expect(answer.status()).toBe(200)
    expect(await form.getByRole('status').textContent()).toContain(en.contact.success_title)
    const [{ id }] = await query<{ id: number }>(
      `SELECT id FROM contact_messages WHERE email = '${email}'`,
    )

    // a hang guard: the delivery's time is measured below, from the form's answer
    await expect
      .poll(async () => (await deliveriesOf(plainPath, id)).length, { timeout: 60_000 })
      .toBeGreaterThan(0)
    const [delivery] = await deliveriesOf(plainPath, id)
    expect(Date.parse(delivery.at) - answeredAt).toBeLessThan(5000)

    // the catcher verified it on arrival with the endpoint's secret, from the site's D1
    expect(delivery.verification).toBe('verified')
    // and so does a receiver with the secret the desk showed
    const headers = delivery.headers as Record<string, string>
    const payload = new Webhook(secret).verify(delivery.body, headers) as {
      type: string
      timestamp: string
      data: Record<string, unknown>
    }
    expect(payload.type).toBe('lead.created')
    expect(payload.data).toMatchObject({ id, kind: 'contact', language: 'en', page: '/contact' })
    expect(String(payload.data.desk_url)).toMatch(new RegExp(`/desk/leads/contact/${id}$`))
    expect(() => new Webhook(personalSecret).verify(delivery.body, headers)).toThrow(
      WebhookVerificationError,
    )

    // the same body over 5 minutes later: refused, whether the old signature is kept with a
    // changed timestamp, or the timestamp is signed afresh (a replay caught by its age)
    const old = new Date(Date.now() - 5 * 60_000 - 30_000)
    const oldTimestamp = String(Math.floor(old.getTime() / 1000))
    expect(() =>
      new Webhook(secret).verify(delivery.body, { ...headers, 'webhook-timestamp': oldTimestamp }),
    ).toThrow(WebhookVerificationError)
    expect(() =>
      new Webhook(secret).verify(delivery.body, {
        ...headers,
        'webhook-timestamp': oldTimestamp,
        'webhook-signature': new Webhook(secret).sign(headers['webhook-id'], old, delivery.body),
      }),
    ).toThrow(/too old/)

    // without personal fields: no name, address or message, nor the company
    for (const field of ['name', 'email', 'company', 'message'])
      expect(payload.data).not.toHaveProperty(field)
    for (const text of ['Wanda', email, message]) expect(delivery.body).not.toContain(text)

    // the endpoint that asked for them gets them, under its own secret
    await expect
      .poll(async () => (await deliveriesOf(personalPath, id)).length, { timeout: 60_000 })
      .toBeGreaterThan(0)
    const [personal] = await deliveriesOf(personalPath, id)
    expect(personal.verification).toBe('verified')
    const withFields = new Webhook(personalSecret).verify(
      personal.body,
      personal.headers as Record<string, string>,
    ) as { data: Record<string, unknown> }
    expect(withFields.data).toMatchObject({ id, name: 'Wanda Hook', email, message })
    // one event: the same webhook-id at both endpoints
    expect(personal.headers['webhook-id']).toBe(headers['webhook-id'])

    // once: the site marked the delivery done after its one attempt, so none follows
    await expect
      .poll(() =>
        query(
          `SELECT d.status, d.attempts FROM webhook_deliveries d
           JOIN webhook_endpoints e ON e.id = d.endpoint_id
           WHERE d.event_id = '${headers['webhook-id']}' AND e.url = '${catcher}${plainPath}'`,
        ),
      )
      .toEqual([{ status: 'done', attempts: 1 }])
    expect(await deliveriesOf(plainPath, id)).toHaveLength(1)

    // nothing more for these endpoints from the files running beside this one
    await query(`DELETE FROM webhook_endpoints WHERE url LIKE '${catcher}/e2e-${tag}/%'`)
    await admin.context().close()
    await visitor.context().close()
  })
})
