import { Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { trimTrailingSlash } from 'hono/trailing-slash'
import { readConfig } from './config'
import type { Bindings } from './bindings'
import type { AppEnv } from './env'
import type { MailJob } from './mail/enqueue'
import { consumeMail } from './mail/queue'
import { CALENDAR_QUEUE, consumeCalendar, type CalendarJob } from './calendar/sync'
import { consumeNewsletter, NEWSLETTER_QUEUE, type NewsletterJob } from './newsletter/send'
import { consumeMedia, MEDIA_QUEUE, type MediaJob } from './content/media-sizes-job'
import type { WebhookJob } from './webhooks/deliver'
import { consumeWebhooks, WEBHOOK_QUEUE } from './webhooks/queue'
import { onSchedule } from './scheduled'
import { deployStatus, recordingRuns } from './deploy-status'
import type { Translator } from './i18n/translator'
import { d1Session } from './middleware/d1-session'
import { i18n } from './middleware/i18n'
import { pageViews } from './middleware/page-views'
import { experimentsOnPage } from './experiments/page'
import { requestSize } from './middleware/request-size'
import { security } from './middleware/security'
import { bookings } from './api/bookings'
import { consent } from './api/consent'
import { accountDataRoutes } from './auth/account-data'
import { joinRoutes } from './auth/join'
import { mfaRoutes } from './auth/mfa'
import { authRoutes } from './auth/routes'
import { authService } from './auth-service/app'
import { authError, type AuthErrorStatus } from './auth-service/gotrue'
import { session } from './auth/session'
import { events } from './api/events'
import { vitals } from './api/vitals'
import { leads } from './api/leads'
import { mailEvents } from './api/mail-events'
import { privacy } from './api/privacy'
import { desk } from './desk/routes'
import { calendarFeed } from './calendar/feed'
import { media } from './content/media'
import { feeds } from './feeds'
import { pages, renderNotFound } from './pages'
import { renderer } from './layout/document'
import { errorPage, errorPages, RETRY_AFTER_SECONDS, wantsPage } from './pages/error-page'
import { isDatabaseError } from './db/outage'
import { answerFromMemory, keepAnswer } from './render/edge-memory'
import { settleBody } from './settle-body'

type QueueJob = MailJob | NewsletterJob | CalendarJob | MediaJob | WebhookJob

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
// A newsletter's preview is the e-mail itself: inline styles, no script, framed by the desk.
app.use('/desk/newsletters/:id/email', async function mailPreviewPolicy(c, next) {
  await next()
  if (!c.res.headers.has('Content-Security-Policy')) return
  c.res.headers.set(
    'Content-Security-Policy',
    "default-src 'none'; img-src 'self' https: data:; style-src 'unsafe-inline'; " +
      "frame-ancestors 'self'; base-uri 'none'; form-action 'none'; sandbox",
  )
  c.res.headers.set('X-Frame-Options', 'SAMEORIGIN')
})
app.use(security())
app.use(trimTrailingSlash({ alwaysRedirect: true }))
app.use(async function config(c, next) {
  c.set('config', readConfig(c.env, c.req.url))
  await next()
})
// from here on c.env.DB reads from the nearest copy of the data (README: "Read replication")
app.use(d1Session())
app.use(i18n())
app.use(requestSize())
app.use(session())
app.use(experimentsOnPage())
app.use(pageViews())
app.use(renderer())
app.use(errorPages())

// the built-in auth service; a hosted one (AUTH_URL) replaces it in production
app.route('/auth/v1', authService)
app.route('/auth', authRoutes)
app.route('/auth', mfaRoutes)
app.route('/auth', accountDataRoutes)
app.route('/api', leads)
app.route('/api/bookings', bookings)
app.route('/api/events', events)
app.route('/api/vitals', vitals)
app.route('/api/consent', consent)
app.route('/api/mail/events', mailEvents)
app.route('/', privacy)
// the agency's calendar feed: a calendar app cannot sign in, its address is the key
app.get('/desk/calendar.ics', calendarFeed)
app.route('/', joinRoutes)
app.route('/desk', desk)
app.route('/media', media)
app.route('/', feeds)
// the deploy's smoke test: behind the token of the version it uploaded
app.route('/__deploy', deployStatus)
app.route('/', pages)
app.notFound(renderNotFound)
app.onError((err, c) => {
  // A refusal raised by middleware (a malformed JSON body, say) is the client's error, worded
  // in its language and in the kind it asked for; D1 not answering is a 503 to retry; anything
  // else is ours.
  const status = err instanceof HTTPException ? err.status : isDatabaseError(err) ? 503 : 500
  if (status >= 500) console.error(err)
  // a person gets the site's error page (pages/error-page.tsx)
  if (wantsPage(c)) return errorPage(c, status)
  const t = c.var.t as Translator | undefined
  const error =
    status === 503
      ? (t?.('error_page.unavailable.text') ?? 'Please try again in a minute.')
      : status >= 500
        ? (t?.('errors.server') ?? 'Something went wrong. Please try again.')
        : status === 413
          ? (t?.('errors.too_large') ?? 'This request is too large.')
          : (t?.('errors.invalid') ?? 'Please check the form and try again.')
  // the built-in auth service answers as GoTrue does
  if (c.req.path.startsWith('/auth/v1/')) {
    const code =
      status >= 500 ? 'unexpected_failure' : status === 413 ? 'request_too_large' : 'bad_json'
    // (raised here: 400 for a body that is not JSON, 413, 500)
    return authError(c, status as AuthErrorStatus, code, error)
  }
  const wantsJson =
    c.req.path.startsWith('/api/') || c.req.header('Accept')?.includes('application/json')
  if (!wantsJson) return errorPage(c, status)
  if (status === 503) c.header('Retry-After', String(RETRY_AFTER_SECONDS))
  return c.json({ error }, status)
})

export default {
  // a page this isolate keeps is answered before the app (render/edge-memory.ts); whoever
  // answers, the request's body does not stay on the connection
  async fetch(request: Request, env: Bindings, ctx: ExecutionContext) {
    try {
      const kept = answerFromMemory(request, env, ctx)
      if (kept) return kept
      const res = await app.fetch(request, env, ctx)
      keepAnswer(request, res)
      return res
    } finally {
      await settleBody(request)
    }
  },
  /**
   * E-mail delivery (worker/mail/queue.ts); newsletters' sending steps (newsletter/send.ts);
   * calendar writes (calendar/sync.ts); pictures' sizes (content/media-sizes-job.ts);
   * webhook deliveries (webhooks/queue.ts).
   */
  async queue(batch: MessageBatch<QueueJob>, env: Bindings) {
    if (batch.queue.startsWith(NEWSLETTER_QUEUE))
      return consumeNewsletter(batch as MessageBatch<NewsletterJob>, env)
    if (batch.queue.startsWith(CALENDAR_QUEUE))
      return consumeCalendar(batch as MessageBatch<CalendarJob>, env)
    if (batch.queue.startsWith(MEDIA_QUEUE))
      return consumeMedia(batch as MessageBatch<MediaJob>, env)
    if (batch.queue.startsWith(WEBHOOK_QUEUE))
      return consumeWebhooks(batch as MessageBatch<WebhookJob>, env)
    return consumeMail(batch as MessageBatch<MailJob>, env)
  },
  /** Stale e-mails back on the queue, newsletters; daily: the agency's digest, clean-up. */
  scheduled: recordingRuns(onSchedule),
} satisfies ExportedHandler<Bindings, QueueJob>
