// Local crons: the cron triggers of wrangler.toml (as the build carries them) fired at the local
// server on their schedule, in UTC as Cloudflare fires them, through the Worker's own scheduled
// handler (dev-entry.js serves /__scheduled). `npm start` runs them; `npm run cron` fires one.
import { readFileSync } from 'node:fs'
import { Cron } from 'croner'

/** The cron expressions the deploy will register (wrangler.toml's [triggers], via the build). */
export function configuredCrons(build = 'dist/growth_agency/wrangler.json') {
  return JSON.parse(readFileSync(build, 'utf8')).triggers?.crons ?? []
}

/** Names for `npm run cron -- NAME`; a full expression works too. */
export const CRON_NAMES = { frequent: '*/5 * * * *', daily: '0 7 * * *' }

/**
 * Runs one cron's scheduled handler on the site at `baseURL`, as if at `at` (a Date; default
 * now); resolves to what it answered.
 */
export async function fireCron(baseURL, cron, at) {
  const time = at ? `&time=${at.getTime()}` : ''
  const res = await fetch(`${baseURL}/__scheduled?cron=${encodeURIComponent(cron)}${time}`)
  return { ok: res.ok, status: res.status, text: (await res.text()).trim() }
}

/** When `cron` next fires after `from` (UTC). */
export const nextRun = (cron, from) =>
  new Cron(cron, { paused: true, timezone: 'UTC' }).nextRun(from)

/**
 * Fires every cron at its time until stopped. `speed` runs the clock faster than real time (the
 * tests: 60 makes a minute pass in a second); `onRun` hears each outcome.
 */
export function startCrons({ baseURL, crons = configuredCrons(), speed = 1, onRun = logRun }) {
  const started = Date.now()
  const now = () => new Date(started + (Date.now() - started) * speed)
  const timers = new Map()
  const schedule = (cron, after) => {
    const at = nextRun(cron, after)
    const wait = Math.max(0, (at.getTime() - now().getTime()) / speed)
    timers.set(
      cron,
      setTimeout(async () => {
        schedule(cron, at)
        try {
          onRun(cron, at, await fireCron(baseURL, cron))
        } catch (err) {
          onRun(cron, at, { ok: false, status: 0, text: String(err?.cause?.code ?? err) })
        }
      }, wait),
    )
  }
  for (const cron of crons) schedule(cron, now())
  return {
    stop: () => timers.forEach((timer) => clearTimeout(timer)),
    next: () => crons.map((cron) => ({ cron, at: nextRun(cron, now()) })),
  }
}

function logRun(cron, at, { ok, status, text }) {
  const when = at.toISOString().slice(0, 16).replace('T', ' ')
  console.log(`cron ${cron} (${when} UTC): ${ok ? text : `failed (${status}) ${text}`}`)
}
