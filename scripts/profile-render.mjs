// `node scripts/profile-render.mjs [path] [--renders N] [--miss | --hit] [--out file.cpuprofile]
// [--bundle index.js]`: where a page's render spends its CPU inside workerd. By default the
// page is asked for with `?lang=`, which the app answers (from its cache after the first);
// `--miss` renders every time (the edge's own refresh, as `npm run bench` measures a miss);
// `--hit` asks as browsers do (Accept-Language), answered from the isolate's memory before the
// app. `--bundle` profiles another build's index.js. Runs the production build (`npm run build`
// first) through Miniflare with the inspector on, samples V8's profiler over N renders of the page
// in English and in Arabic (after warm-up), and prints the functions with the most self
// time and the share of each. The saved profile opens in Chrome DevTools (Performance).
// Costs that only workerd has (its Node compatibility layer, its native streams) show here
// and not in a Node profile of the same bundle. Figures: docs/perf/render-profile.md.
import { readFileSync, writeFileSync } from 'node:fs'
import { Miniflare } from './lib/miniflare-v4.mjs'
import { inspectIsolate } from './lib/isolate-cpu.mjs'
import { miniflareModules } from './lib/built-worker.mjs'
import { freePort } from './lib/server.mjs'

const args = process.argv.slice(2)
const flag = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback)
const path = args[0]?.startsWith('/') ? args[0] : '/'
const renders = Number(flag('--renders', 200))
const out = flag('--out', '.wrangler/render.cpuprofile')
const mode = args.includes('--miss') ? 'miss' : args.includes('--hit') ? 'hit' : 'app'

const root = new URL('../', import.meta.url)
const built = JSON.parse(readFileSync(new URL('dist/growth_agency/wrangler.json', root), 'utf8'))
const vars = Object.fromEntries(
  [...readFileSync(new URL('wrangler.toml', root), 'utf8').matchAll(/^([A-Z_]+) = "(.*)"$/gm)].map(
    (m) => [m[1], m[2]],
  ),
)
const inspectorPort = await freePort()
const mf = new Miniflare({
  ...(args.includes('--bundle')
    ? { modules: [{ type: 'ESModule', path: flag('--bundle', '') }] }
    : miniflareModules()),
  compatibilityDate: built.compatibility_date,
  compatibilityFlags: built.compatibility_flags ?? [],
  bindings: { ...vars, ENVIRONMENT: 'production' },
  d1Databases: { DB: 'profile' },
  inspectorPort,
})
const render = async (lang) => {
  const res =
    mode === 'app'
      ? await mf.dispatchFetch(`http://profile.example${path}?lang=${lang}`)
      : await mf.dispatchFetch(`http://profile.example${path}`, {
          headers: { 'Accept-Language': lang, ...(mode === 'miss' && { 'x-render-refresh': '1' }) },
        })
  await res.arrayBuffer()
}
for (let i = 0; i < 20; i++) for (const lang of ['en', 'ar']) await render(lang)

// the Chrome DevTools protocol of the worker's isolate
const { send, close } = await inspectIsolate(mf, inspectorPort)
await send('Profiler.enable')
await send('Profiler.setSamplingInterval', { interval: 100 })
await send('Profiler.start')
for (let i = 0; i < renders; i++) for (const lang of ['en', 'ar']) await render(lang)
const { profile } = await send('Profiler.stop')
close()
await mf.dispose()
writeFileSync(out, JSON.stringify(profile))

// self time per function, idle left out
const nodes = new Map(profile.nodes.map((n) => [n.id, n.callFrame]))
const self = new Map()
let busy = 0
// a sample stands for at most a little more than the sampling interval: a longer gap is time
// the isolate did not run (lib/isolate-cpu.mjs)
const sorted = profile.timeDeltas.slice(1).sort((a, b) => a - b)
const most = 1.25 * sorted[Math.floor(sorted.length / 2)]
profile.samples.forEach((id, i) => {
  const frame = nodes.get(id)
  if (frame.functionName === '(idle)') return
  const us = Math.min(profile.timeDeltas[i] ?? 0, most)
  const name = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').pop()}:${frame.lineNumber + 1}`
  self.set(name, (self.get(name) ?? 0) + us)
  busy += us
})
console.log(
  `${path}: ${(busy / 1000 / (2 * renders)).toFixed(2)} ms of CPU per render under the profiler (${2 * renders} renders, en and ar); profile in ${out}`,
)
for (const [name, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25))
  console.log(`${((100 * us) / busy).toFixed(1).padStart(6)} %  ${name}`)
