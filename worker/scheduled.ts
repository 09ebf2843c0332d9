import { purgeExpired } from './auth-service/db'
import { currentGenerations } from './content/generations'
import { refreshSnapshots } from './content/snapshot'
import { purgeCancellations } from './db/bookings'
import { publishDue } from './db/content'
import { limitOf } from './auth-service/settings'
import { purgePendingSubscriptions } from './db/personal-data'
import type { Bindings } from './bindings'
import { requeueStale, sendDigest } from './mail/queue'
import { startDueIssues } from './newsletter/send'
import { sendReminders } from './services/reminders'
import { syncCalendar } from './calendar/sync'
import { queueLostSizes } from './content/media-sizes-job'

/**
 * Daily (README: "Retention"), as the privacy policy states: sign-ups never confirmed, 30 days
 * on; the built-in auth service's spent or expired one-time links and codes, sessions 30 days
 * after they ended, failure counters of past windows; a cancelled call's invitation a day after
 * its time. Rows deleted, by kind.
 */
export async function purgeRetained(env: Bindings) {
  const pending = await purgePendingSubscriptions(env.DB).run()
  const auth = await purgeExpired(env.DB, limitOf(env, 'AUTH_FAILURE_WINDOW'))
  const cancellations = await purgeCancellations(env.DB).run()
  return {
    pendingSubscriptions: pending.meta.changes,
    bookingCancellations: cancellations.meta.changes,
    ...auth,
  }
}

/** The cron triggers of wrangler.toml (every five minutes; daily at 07:00 UTC). */
export async function onSchedule(controller: ScheduledController, env: Bindings) {
  if (controller.cron === '0 7 * * *') {
    console.log('retention', await purgeRetained(env))
    await sendDigest(env)
  } else {
    // scheduled content whose time has come goes live, its pages rendered anew
    const published = await publishDue(env.DB)
    if (published.length) {
      console.log('published', published)
      await currentGenerations(env.DB, { afterChange: true })
    }
    // the published content outside D1: any kind whose snapshot is missing or behind
    await refreshSnapshots(env).catch((err) => console.error('content snapshots unwritten', err))
    await startDueIssues(env)
    // as of the trigger's time (the local cron can advance it: scripts/lib/crons.mjs)
    await sendReminders(env, controller.scheduledTime)
    // what the calendar did not take yet (its queue retries too)
    await syncCalendar(env).catch((err) => console.error('calendar: sync failed', err))
    await requeueStale(env)
    // pictures whose sizes' job was lost
    await queueLostSizes(env).catch((err) => console.error('media: sizes not asked again', err))
  }
}
