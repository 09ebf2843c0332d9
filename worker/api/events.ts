import { Hono } from 'hono'
import * as v from 'valibot'
import { EventSchema } from '../../client/schemas/events'
import { record } from '../analytics/record'
import type { AppEnv } from '../env'
import { limitBody, rateLimit, sameSiteOnly } from '../middleware/form-guard'

/** POST /api/events: conversion events from the browser (sendBeacon), into Analytics Engine. */
export const events = new Hono<AppEnv>()

events.post('/', sameSiteOnly(), limitBody(2048), rateLimit('EVENT_LIMITER'), async (c) => {
  let body: unknown
  try {
    body = await c.req.json()
  } catch {
    return c.json({ error: c.var.t('errors.invalid') }, 400)
  }
  const parsed = v.safeParse(EventSchema, body)
  if (!parsed.success) return c.json({ error: c.var.t('errors.invalid') }, 400)
  record(c, { event: parsed.output.name, path: parsed.output.path, props: parsed.output.props })
  return c.body(null, 204)
})
