import { Hono } from 'hono'
import { trimTrailingSlash } from 'hono/trailing-slash'
import { readConfig } from './config'
import type { AppEnv } from './env'
import { i18n } from './middleware/i18n'
import { security } from './middleware/security'
import { leads } from './api/leads'
import { pages, renderNotFound } from './pages'
import { renderer } from './renderer'

const app = new Hono<AppEnv>()

app.use(security())
app.use(trimTrailingSlash({ alwaysRedirect: true }))
app.use(async function config(c, next) {
  c.set('config', readConfig(c.env, c.req.url))
  await next()
})
app.use(i18n())
app.use(renderer())

app.route('/api', leads)
app.route('/', pages)
app.notFound(renderNotFound)
app.onError((err, c) => {
  console.error(err)
  return c.text(c.var.t?.('errors.server') ?? 'Something went wrong. Please try again.', 500)
})

export default app
