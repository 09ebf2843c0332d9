import { env } from 'cloudflare:test'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { createTranslator } from '../../../worker/i18n/translator'
import { attemptDelivery } from '../../../worker/webhooks/deliver'
import { slackBody, type StoredEvent } from '../../../worker/webhooks/payload'
import { deliveryTo, makeEndpoint, pathFor, received } from './helpers'

/**
 * The part of Slack's Block Kit the messages use, with Slack's limits
 * (api.slack.com/reference/block-kit): at most 50 blocks; a header's text plain_text, 150
 * characters; a section's text 3000; a context's elements 10; a button's label plain_text, 75
 * characters, its url 3000, its action_id 255.
 */
const plain = (max: number) =>
  v.strictObject({
    type: v.literal('plain_text'),
    text: v.pipe(v.string(), v.minLength(1), v.maxLength(max)),
    emoji: v.optional(v.boolean()),
  })
const textObject = (max: number) =>
  v.union([
    plain(max),
    v.strictObject({
      type: v.literal('mrkdwn'),
      text: v.pipe(v.string(), v.minLength(1), v.maxLength(max)),
    }),
  ])
const Block = v.variant('type', [
  v.strictObject({ type: v.literal('header'), text: plain(150) }),
  v.strictObject({ type: v.literal('section'), text: textObject(3000) }),
  v.strictObject({
    type: v.literal('context'),
    elements: v.pipe(v.array(textObject(3000)), v.minLength(1), v.maxLength(10)),
  }),
  v.strictObject({
    type: v.literal('actions'),
    elements: v.pipe(
      v.array(
        v.strictObject({
          type: v.literal('button'),
          text: plain(75),
          url: v.pipe(v.string(), v.url(), v.maxLength(3000)),
          action_id: v.pipe(v.string(), v.maxLength(255)),
        }),
      ),
      v.minLength(1),
      v.maxLength(25),
    ),
  }),
])
const SlackMessage = v.strictObject({
  text: v.pipe(v.string(), v.minLength(1)),
  blocks: v.pipe(v.array(Block), v.minLength(1), v.maxLength(50)),
})

const at = '2026-03-02T10:00:00.000Z'
const desk = 'https://example.com/desk/leads/contact/7'
const EVENTS: [string, Record<string, unknown>][] = [
  [
    'lead.created',
    {
      kind: 'contact',
      service: 'amazon',
      language: 'de',
      page: '/contact',
      personal: {
        name: 'Ada <@U123> & co',
        email: 'ada@example.org',
        message: `${'A long message. '.repeat(400)}\n<https://evil.example|click>`,
      },
    },
  ],
  ['lead.created', { kind: 'guide', guide: 'amazon-listing-checklist', language: 'en' }],
  ['lead.created', { kind: 'subscriber', form: 'newsletter', language: 'fr' }],
  ['subscriber.confirmed', { language: 'es', personal: { name: 'Ana', email: 'a@example.org' } }],
  ['subscriber.unsubscribed', { language: 'es' }],
  ['booking.created', { slot_start: at, slot_end: at, language: 'ar', personal: { notes: 'Hi' } }],
  ['booking.moved', { slot_start: at, previous_start: '2026-03-01T10:00:00.000Z' }],
  ['booking.cancelled', { slot_start: at, by: 'visitor' }],
  ['content.published', { kind: 'article', slug: 'x'.repeat(300) }],
  ['webhook.test', { language: 'en' }],
]
const stored = (type: string, data: Record<string, unknown>): StoredEvent => ({
  id: 'msg_1',
  type,
  created_at: at,
  data: JSON.stringify({ ...data, id: 7, desk_url: desk }),
})

describe('a Slack-format delivery', () => {
  for (const lang of ['en', 'ar'] as const)
    it.each(EVENTS)(`matches Block Kit's shape (%s, ${lang})`, (type, data) => {
      for (const personal of [true, false]) {
        const body = JSON.parse(
          slackBody(stored(type, data), personal, {
            t: createTranslator(lang),
            lang,
            timeZone: 'Europe/London',
          }),
        )
        const parsed = v.safeParse(SlackMessage, body)
        expect(
          parsed.issues?.map((i) => `${i.path?.map((p) => p.key).join('.')}: ${i.message}`),
        ).toBeUndefined()
        expect(body.blocks.at(-1).elements[0].url).toBe(desk)
      }
    })

  it('says what happened and the slot in the agency zone; a name and message only with personal fields, escaped', () => {
    const w = { t: createTranslator('en'), lang: 'en' as const, timeZone: 'Europe/London' }
    const [, contact] = EVENTS[0]
    const without = slackBody(stored('lead.created', contact), false, w)
    expect(without).toContain('New contact message')
    expect(without).not.toMatch(/Ada|ada@example|long message/)
    const withPersonal = slackBody(stored('lead.created', contact), true, w)
    expect(withPersonal).toContain('Ada &lt;@U123&gt; &amp; co')
    expect(withPersonal).not.toContain('<https://evil')
    const booking = slackBody(stored('booking.created', EVENTS[5][1]), false, w)
    // 10:00 UTC in March is 10:00 in London
    expect(booking).toMatch(/New call booked: Mar 2, 2026, 10:00/)
  })

  it('goes to a Slack endpoint as that message, with the Standard Webhooks headers too', async () => {
    const e = await makeEndpoint({ path: pathFor('ok'), format: 'slack' })
    const id = await deliveryTo(e.id)
    await attemptDelivery(env, { id })
    const [got] = await received(e.path)
    expect(v.safeParse(SlackMessage, JSON.parse(got.body)).success).toBe(true)
    expect(got.headers['webhook-signature']).toMatch(/^v1,/)
  })
})
