// The local server's entry (`npm start`, the tests): the production Worker (./index.js, beside it
// in dist/) behind two things `wrangler dev` lacks. Copied next to the build by dev-worker.mjs;
// never deployed.
//  1. Static files through the Worker. wrangler dev's asset server answers a GET, PUT or OPTIONS
//     to /assets/… without reading its body, and its proxy then fails the next request or
//     stops (workers-sdk #5095). Here a body is read off the connection before the file goes
//     out; in production Cloudflare's edge serves the files and has no such trouble.
//  2. Crons. Miniflare hands /cdn-cgi/handler/scheduled to the asset router, which cannot pass
//     the ScheduledController on (DataCloneError), so local crons call the Worker's own
//     scheduled handler at /__scheduled?cron=…[&time=ms] (scripts/lib/crons.mjs).
import worker from './index.js'

export * from './index.js'

export default {
  ...worker,
  async fetch(request, env, ctx) {
    const url = new URL(request.url)
    if (url.pathname === '/__scheduled') {
      const cron = url.searchParams.get('cron') ?? ''
      // `time` (ms): the clock advanced, as the reminders' test wants it
      const scheduledTime = Number(url.searchParams.get('time')) || Date.now()
      const controller = { cron, scheduledTime, noRetry() {} }
      try {
        await worker.scheduled(controller, env, ctx)
        return new Response(`ran ${cron}\n`)
      } catch (err) {
        console.error(err)
        return new Response(`failed ${cron}: ${err}\n`, { status: 500 })
      }
    }
    const bare = (method) => new Request(request.url, { method, headers: request.headers })
    const probe = await env.ASSETS.fetch(bare('HEAD'))
    if (probe.status === 404) return worker.fetch(request, env, ctx)
    if (request.body) await request.arrayBuffer() // off the connection before the file goes
    return env.ASSETS.fetch(bare(request.method))
  },
}
