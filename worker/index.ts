import { Hono } from 'hono'
import { trimTrailingSlash } from 'hono/trailing-slash'
import { readConfig } from './config'
import type { AppEnv } from './env'
import { i18n } from './middleware/i18n'
import { pageViews } from './middleware/page-views'
import { security } from './middleware/security'
import { bookings } from './api/bookings'
import { consent } from './api/consent'
import { mfaRoutes } from './auth/mfa'
import { authRoutes } from './auth/routes'
import { authService } from './auth-service/app'
import { session } from './auth/session'
import { events } from './api/events'
import { leads } from './api/leads'
import { feeds } from './feeds'
import { pages, renderNotFound } from './pages'
import { renderer } from './render/document'

const app = new Hono<AppEnv>()

// The booking page may be framed by our own scheduling dialog; nothing else may.
app.use('/book', async function frameableBySelf(c, next) {
  await next()
  const csp = c.res.headers.get('Content-Security-Policy')
  if (csp)
    c.res.headers.set(
      'Content-Security-Policy',
      csp.replace("frame-ancestors 'none'", "frame-ancestors 'self'"),
    )
  c.res.headers.set('X-Frame-Options', 'SAMEORIGIN')
})
app.use(security())
app.use(trimTrailingSlash({ alwaysRedirect: true }))
app.use(async function config(c, next) {
  c.set('config', readConfig(c.env, c.req.url))
  await next()
})
app.use(i18n())
app.use(session())
app.use(pageViews())
app.use(renderer())

// the built-in auth service; a hosted one (AUTH_URL) replaces it in production
app.route('/auth/v1', authService)
app.route('/auth', authRoutes)
app.route('/auth', mfaRoutes)
app.route('/api', leads)
app.route('/api/bookings', bookings)
app.route('/api/events', events)
app.route('/api/consent', consent)
app.route('/', feeds)
app.route('/', pages)
app.notFound(renderNotFound)
app.onError((err, c) => {
  console.error(err)
  return c.text(c.var.t?.('errors.server') ?? 'Something went wrong. Please try again.', 500)
})

export default app
