import type { Context } from 'hono'
import type { Bindings } from '../bindings'
import { eventStatements, type Sql } from '../db/webhooks'
import type { AppEnv } from '../env'
import { queueRows } from './queue'
import { newEventId } from './sign'

/**
 * The events the site raises (docs/webhooks.md "Events"). Each is written with the change it
 * tells of, in the same D1 batch where the change is one batch, and its deliveries go on the
 * queue after the answer: the visitor never waits on a delivery.
 */
export const EVENT_TYPES = [
  'lead.created',
  'subscriber.confirmed',
  'subscriber.unsubscribed',
  'booking.created',
  'booking.moved',
  'booking.cancelled',
  'content.published',
] as const
export type EventType = (typeof EVENT_TYPES)[number]

/** The desk's "Send a test event": to one endpoint, whatever it subscribed to. */
export const TEST_EVENT = 'webhook.test'

/**
 * What an event carries: `data` goes to every endpoint; `personal` (name, address, message,
 * company, notes) only to an endpoint that asks for personal fields. The item's `id` and its
 * `desk_url` are added as the batch writes the event.
 */
export interface NewEvent {
  type: EventType | typeof TEST_EVENT
  /** The item's id, or SQL reading it at the event's place in the batch. */
  item: number | string | Sql
  /** The item's desk page, from the site's root; `:id` is replaced by the item's id. */
  deskPath: string
  data: Record<string, unknown>
  personal?: Record<string, unknown>
  /** The event is written only if this holds at its place in the batch. */
  when?: Sql
  endpointId?: number
}

/**
 * The two statements of an event (writing nothing when no endpoint wants it), for the end of
 * the batch of its change; the last one returns the deliveries for `dispatch`.
 */
export function webhookEvent(
  env: Pick<Bindings, 'DB'>,
  siteUrl: string,
  e: NewEvent,
  now = new Date(),
) {
  return eventStatements(env.DB, {
    id: newEventId(),
    type: e.type,
    at: now.toISOString(),
    data: JSON.stringify({ ...e.data, personal: e.personal ?? {} }),
    item: e.item,
    deskUrl: `${siteUrl}${e.deskPath}`,
    when: e.when,
    endpointId: e.endpointId,
  })
}

/** The request's webhookEvent: its site address. */
export const eventOf = (c: Context<AppEnv>, e: NewEvent) =>
  webhookEvent(c.env, c.var.config.siteUrl, e)

/**
 * The deliveries a committed batch wrote (the result of webhookEvent's last statement) go on
 * the queue after the answer; if the queue cannot take them, the cron does (queue.ts).
 */
export function dispatch(c: Pick<Context<AppEnv>, 'env' | 'executionCtx'>, result?: D1Result) {
  const rows = (result?.results ?? []) as { id: number; next_at: string }[]
  if (rows.length) c.executionCtx.waitUntil(queueRows(c.env, rows))
}

/**
 * An event written in a batch of its own, after its change was committed (where the change's
 * outcome is known only from its batch's results). A failure is logged, never the visitor's.
 */
export async function emit(c: Context<AppEnv>, e: NewEvent) {
  try {
    const results = await c.env.DB.batch(eventOf(c, e))
    dispatch(c, results[1])
  } catch (err) {
    console.error('webhooks: event not written', e.type, err)
  }
}

/** An item of the desk's content gone live (a save that publishes it, or its scheduled time). */
export const contentPublishedEvent = (item: { kind: string; slug: string }): NewEvent => ({
  type: 'content.published',
  item: {
    sql: '(SELECT id FROM content_items WHERE kind = ? AND slug = ?)',
    args: [item.kind, item.slug],
  },
  deskPath: `/desk/content/${item.kind}/:id`,
  data: { kind: item.kind, slug: item.slug },
})

/** The cron's: its statements, with the site's address. */
export const contentPublished = (
  env: Pick<Bindings, 'DB'>,
  siteUrl: string,
  item: { kind: string; slug: string },
) => webhookEvent(env, siteUrl, contentPublishedEvent(item))

/** The deliveries the last of a batch's webhook statements returned. */
export const deliveriesOf = (results: D1Result[]) =>
  (results.at(-1)?.results ?? []) as { id: number; next_at: string }[]
