import { vValidator } from '@hono/valibot-validator'
import { Hono, type Context } from 'hono'
import { EventSchema } from '../../client/schemas/events'
import { record } from '../analytics/record'
import type { AppEnv } from '../env'
import { limitBody, rateLimit, sameSiteOnly } from '../middleware/form-guard'

/** POST /api/events: conversion events from the browser (sendBeacon), into Analytics Engine. */
export const events = new Hono<AppEnv>()

events.post(
  '/',
  sameSiteOnly(),
  limitBody(2048),
  rateLimit('EVENT_LIMITER'),
  vValidator('json', EventSchema, (result, c: Context<AppEnv>) => {
    if (!result.success) return c.json({ error: c.var.t('errors.invalid') }, 400)
  }),
  (c) => {
    const { name, path, props } = c.req.valid('json')
    record(c, { event: name, path, props })
    return c.body(null, 204)
  },
)
