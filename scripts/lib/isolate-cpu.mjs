// CPU time of single requests inside workerd, for `npm run bench`. workerd reports no CPU time
// locally, and its process runs Miniflare's own workers (the entry that forwards each request,
// the D1 and cache objects) on the same thread as ours, so neither wall time nor the thread's
// CPU isolates the Worker. V8's sampling profiler on the Worker's own isolate does: it samples
// only while that isolate runs (JavaScript, the runtime's APIs it calls, its garbage
// collection), never another isolate or a wait for I/O. Each request is timed by the clock the
// samples carry (both monotonic), with the isolate idle before and after, so every sample
// falls to the request it belongs to; what runs in waitUntil after the response counts too, as
// it does on Cloudflare. The profiler's own interruptions are included: an upper bound.
import { WebSocket } from 'undici'
import { freePort } from './server.mjs'

/** A Miniflare option set with the inspector on, for `isolateCpu`. */
export async function withInspector(options) {
  return { ...options, inspectorPort: await freePort() }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
const nowUs = () => Number(process.hrtime.bigint() / 1000n)

/**
 * The Chrome DevTools protocol of the isolate of a Miniflare's first worker (its inspector on
 * `inspectorPort`): `send(method, params)` answers with the result; `close()`.
 */
export async function inspectIsolate(mf, inspectorPort) {
  await mf.ready
  const targets = await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json()
  const socket = new WebSocket(targets[0].webSocketDebuggerUrl)
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true })
    socket.addEventListener('error', reject, { once: true })
  })
  const answers = new Map()
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(event.data)
    answers.get(message.id)?.(message.result)
  })
  let lastId = 0
  const send = (method, params = {}) =>
    new Promise((resolve) => {
      answers.set(++lastId, resolve)
      socket.send(JSON.stringify({ id: lastId, method, params }))
    })
  return { send, close: () => socket.close() }
}

/**
 * Profiles the isolate of the Miniflare's first worker. `measure(request)` runs one request
 * (an async function) and returns a handle whose `.ms` is known after `collect()`, which stops
 * the profiler and attributes its samples.
 */
export async function isolateCpu(mf, inspectorPort, { intervalUs = 50, settleMs = 3 } = {}) {
  const { send, close } = await inspectIsolate(mf, inspectorPort)
  await send('Profiler.enable')
  await send('Profiler.setSamplingInterval', { interval: intervalUs })
  await send('Profiler.start')
  const windows = []

  return {
    async measure(request) {
      await sleep(settleMs)
      const window = { from: nowUs(), to: 0, ms: NaN }
      const result = await request()
      // what the request left to waitUntil (a copy for the cache, analytics) is its CPU too
      await sleep(settleMs)
      window.to = nowUs()
      windows.push(window)
      return { window, result }
    },
    /** Stops the profiler; every window gets its `ms`. Returns the sampling interval seen. */
    async collect() {
      const { profile } = await send('Profiler.stop')
      close()
      const idle = new Set(
        profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id),
      )
      // A sample stands for the time since the one before it, but at most a little more than
      // the sampling interval: a longer gap is time the thread did not run this isolate (it
      // was idle, ran another isolate, or the machine's scheduler gave its core to another
      // process), which is wall time, not the isolate's CPU.
      const deltas = profile.timeDeltas.slice(1).sort((a, b) => a - b)
      const interval = deltas[Math.floor(deltas.length / 2)] ?? intervalUs
      const most = 1.25 * interval
      let t = profile.startTime
      const samples = profile.samples.map((id, i) => {
        t += profile.timeDeltas[i]
        return { t, us: idle.has(id) ? 0 : Math.min(profile.timeDeltas[i], most) }
      })
      let at = 0
      for (const window of windows.sort((a, b) => a.from - b.from)) {
        let us = 0
        while (at < samples.length && samples[at].t < window.from) at++
        for (let i = at; i < samples.length && samples[i].t <= window.to; i++) us += samples[i].us
        window.ms = us / 1000
      }
      return interval
    },
  }
}
