import { purgeExpired } from './auth-service/db'
import { currentGenerations } from './content/generations'
import { refreshSnapshots } from './content/snapshot'
import { purgeCancellations } from './db/bookings'
import { logExpiredInvitations } from './db/team'
import { publishDue } from './db/content'
import { limitOf } from './auth-service/settings'
import { purgePendingSubscriptions } from './db/personal-data'
import type { Bindings } from './bindings'
import { siteConfig } from './config'
import { requeueStale, sendDigest } from './mail/queue'
import { startDueIssues } from './newsletter/send'
import { sendReminders } from './services/reminders'
import { syncCalendar } from './calendar/sync'
import { queueLostSizes } from './content/media-sizes-job'
import { contentPublished, deliveriesOf } from './webhooks/events'
import { purgeOldWebhooks, queueRows, requeueOverdue } from './webhooks/queue'

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

/**
 * Runs the steps one after the other, each whatever became of the ones before: a failure is
 * logged under the step's name and the next step runs. The run fails at the end if a step
 * did, so cron_runs (deploy-status.ts) and the platform's log say so.
 */
async function runSteps(steps: Record<string, () => Promise<unknown>>) {
  const failed: string[] = []
  for (const [name, step] of Object.entries(steps))
    try {
      await step()
    } catch (err) {
      failed.push(name)
      console.error(`cron: ${name} failed`, err)
    }
  if (failed.length) throw new Error(`cron: ${failed.join(', ')} failed`)
}

/** The cron triggers of wrangler.toml (every five minutes; daily at 07:00 UTC). */
export async function onSchedule(controller: ScheduledController, env: Bindings) {
  if (controller.cron === '0 7 * * *')
    return runSteps({
      retention: async () => console.log('retention', await purgeRetained(env)),
      // the webhooks' delivery log: attempts, finished deliveries and their events, 30 days
      'webhook log': async () => console.log('webhook log', await purgeOldWebhooks(env)),
      digest: () => sendDigest(env),
    })
  return runSteps({
    // scheduled content whose time has come goes live, its pages rendered anew
    'scheduled content': async () => {
      const { siteUrl } = siteConfig(env)
      const published = await publishDue(env.DB, undefined, (item) =>
        contentPublished(env, siteUrl, item),
      )
      if (!published.length) return
      console.log(
        'published',
        published.map(({ kind, slug }) => ({ kind, slug })),
      )
      // their content.published webhooks
      await queueRows(
        env,
        published.flatMap((p) => deliveriesOf(p.also)),
      )
      await currentGenerations(env.DB, { afterChange: true })
    },
    // the published content outside D1: any kind whose snapshot is missing or behind
    'content snapshots': () => refreshSnapshots(env),
    newsletters: () => startDueIssues(env),
    // as of the trigger's time (the local cron can advance it: scripts/lib/crons.mjs)
    reminders: () => sendReminders(env, controller.scheduledTime),
    // what the calendar did not take yet (its queue retries too)
    'calendar sync': () => syncCalendar(env),
    // e-mails left queued or stuck sending, back on the queue
    'mail requeue': () => requeueStale(env),
    // webhook attempts overdue (a lost queue message, a Worker gone mid-attempt), as of the
    // trigger's time
    'webhook requeue': () => requeueOverdue(env, controller.scheduledTime),
    // pictures whose sizes' job was lost
    'picture sizes': () => queueLostSizes(env),
    // team invitations past their seven days, in the desk's history (as of the trigger's time)
    'expired invitations': () => logExpiredInvitations(env.DB, controller.scheduledTime),
  })
}
