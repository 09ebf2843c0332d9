// CPU time of workerd's main thread per request, from the kernel's count for that thread
// (/proc/<pid>/task/<pid>/schedstat, in ns; time the VM's host gave the core to someone else is
// not in it). The profiler (isolate-cpu.mjs) sees only the isolate's own JavaScript and what it
// calls; this also sees native work done for the request while its stream is pumped (a tee, an
// HTMLRewriter, body copies), which the profiler misses: dropping those two changed nothing in
// its figures and saved a fifth of a home-page miss here. It also counts what the runtime spends on
// any request (HTTP, the socket, the kernel's loopback), so the bench sends the requests to the
// Worker's own socket (no Miniflare entry worker in between) and subtracts a baseline: a Worker
// that answers the same number of bytes from memory, measured between the page's requests. On a
// miss it also puts as many bytes into the Cache API, as a miss does (`put=1`): Miniflare's cache
// is a worker of its own on this same thread, which Cloudflare's is not, and it cost a third of a
// home-page miss here (median 4.90 → 3.30 ms without the put). What the put costs the Worker's
// own isolate is in the profiler's figure.
import { readdirSync, readFileSync } from 'node:fs'

/** The pid of a workerd this process started, not one of `known`. */
export function workerdPid(known = new Set()) {
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid) || known.has(pid)) continue
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      if (stat.includes('(workerd)') && parent === process.pid) return pid
    } catch {
      // gone in between
    }
  }
  throw new Error('no workerd child process')
}

/** ns of CPU the process's main thread has had. */
export const threadNs = (pid) =>
  Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[0])

/**
 * A Worker answering `?bytes=N` with N bytes of HTML kept in memory: the baseline; with `&put=1`
 * it puts a copy into the Cache API too, as the edge cache keeps a page (render/edge-cache.ts).
 */
export const BASELINE_WORKER = `
const kept = new Map()
export default {
  fetch(request, env, ctx) {
    const url = new URL(request.url)
    const n = Number(url.searchParams.get('bytes')) || 0
    let body = kept.get(n)
    if (!body) kept.set(n, (body = new Uint8Array(n).fill(120)))
    const type = 'text/html; charset=UTF-8'
    if (url.searchParams.has('put')) {
      const copy = new Response(body.slice(), {
        headers: { 'Content-Type': type, 'Cache-Control': 'public, max-age=86400', 'Cache-Tag': 'site-pages', 'x-stored-at': String(Date.now()) },
      })
      ctx.waitUntil(caches.default.put('http://baseline.example/' + n, copy))
    }
    return new Response(body.slice(), { headers: { 'Content-Type': type } })
  },
}`
