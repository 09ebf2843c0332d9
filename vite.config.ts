import { existsSync, readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { cloudflare } from '@cloudflare/vite-plugin'
import UnoCSS from 'unocss/vite'
import { defineConfig, type Plugin } from 'vite'

const CLIENT_ENTRY = 'client/entry.ts'
const WORKER_ENV = 'growth_agency'

interface ManifestChunk {
  file: string
  css?: string[]
  src?: string
}

/**
 * `virtual:client-assets` tells the server render which script, stylesheets and fonts the
 * client build produced (hashed names, from its manifest); in dev it points at Vite's sources.
 */
export function clientAssets(): Plugin {
  const id = 'virtual:client-assets'
  let serve = true
  // a new id for every build (and dev server): cached pages of another build never match
  const build = Date.now().toString(36) + Math.random().toString(36).slice(2, 8)
  return {
    name: 'client-assets',
    configResolved(config) {
      serve = config.command === 'serve' && !config.isProduction
    },
    resolveId(source) {
      return source === id ? '\0' + id : undefined
    },
    load(resolved) {
      if (resolved !== '\0' + id) return
      if (serve) {
        return `export default ${JSON.stringify({ scripts: ['/@vite/client', '/' + CLIENT_ENTRY], styles: [], fonts: [], build })}`
      }
      const manifest: Record<string, ManifestChunk> = JSON.parse(
        readFileSync(resolve('dist/client/.vite/manifest.json'), 'utf8'),
      )
      const entry = manifest[CLIENT_ENTRY]
      const fonts = Object.values(manifest)
        .filter((c) => c.src?.endsWith('inter-latin-wght-normal.woff2'))
        .map((c) => '/' + c.file)
      return `export default ${JSON.stringify({
        scripts: ['/' + entry.file],
        styles: (entry.css ?? []).map((f) => '/' + f),
        fonts,
        build,
      })}`
    },
  }
}

/**
 * React's server renderer measures every piece of HTML it writes (some 8,000 on the home
 * page) in UTF-8 bytes, only to decide which Suspense boundaries to stream apart. It does it
 * with `Buffer.byteLength`, which in workerd is a call into its Node compatibility layer: a
 * third of the home page's CPU there; an exact count in JavaScript still cost a tenth. The
 * site has no Suspense boundary, so in the one build the worker bundles
 * (worker/react-dom-server.ts) the measure is the piece's length in UTF-16 units: the same for
 * ASCII, at most three times too small for other text, which would only let a boundary with
 * much non-Latin text be inlined where React would have streamed it apart. The build fails
 * if React's function is no longer there.
 */
export function reactByteLength(): Plugin {
  const file = 'react-dom-server.bun.production.js'
  const call = 'return Buffer.byteLength(chunk, "utf8");'
  return {
    name: 'react-byte-length',
    enforce: 'pre',
    apply: 'build',
    transform(code, id) {
      if (!id.endsWith(file)) return
      if (!code.includes(call)) this.error(`${file}: byteLengthOfChunk changed (vite.config.ts)`)
      return { code: code.replace(call, 'return chunk.length;'), map: null }
    },
  }
}

/**
 * The entry of `pkg` as `owner` (a package of node_modules) resolves it: its own copy in its
 * node_modules, else the one hoisted above it. ESM packages: their exports' `.` default.
 */
function entryAs(owner: string, pkg: string) {
  for (let dir = resolve('node_modules', owner); dir !== dirname(dir); dir = dirname(dir)) {
    const root = resolve(dir, 'node_modules', pkg)
    if (!existsSync(resolve(root, 'package.json'))) continue
    const { exports } = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8'))
    return resolve(root, exports['.'].default)
  }
  throw new Error(`${pkg} not found from ${owner} (vite.config.ts)`)
}

/**
 * The size of the upload (`npm run bench` holds it to a budget): what libraries of the Worker
 * import and the Worker never runs, replaced by stubs of our own (worker/stubs/), and a
 * library's own minified build where it publishes one. The build, the dev server and the worker
 * tests (vitest.worker.config.ts) all resolve them so.
 */
export const workerAliases = [
  // sanitize-html's style parser: no pass of ours parses styles
  { find: /^postcss$/, replacement: resolve('worker/stubs/postcss.ts') },
  // mimetext's check of an attachment's type, without mime-db
  { find: /^mime-types$/, replacement: resolve('worker/stubs/mime-types.ts') },
  // mimetext's String.prototype.trim through core-js: workerd has its own
  {
    find: /^@babel\/runtime-corejs3\/core-js\/instance\/trim$/,
    replacement: resolve('worker/stubs/instance-trim.ts'),
  },
  // the calendar's iCalendar reader: the package's minified build of the same release (its
  // exports name only the commented one, 62 KB gzipped against 23)
  { find: /^ical\.js$/, replacement: resolve('node_modules/ical.js/dist/ical.min.js') },
  // one HTML parser: html-to-text (a newsletter's text part, mail/body.ts) asks for
  // htmlparser2 8 and its DOM, and gets sanitize-html's htmlparser2 12 and the same DOM's
  // later versions (domhandler 6, dom-serializer 3): the same text of every seeded article
  // and guide, 37 KB gzipped less (docs/decisions/008-mail-text-from-html.md)
  ...['htmlparser2', 'domhandler', 'dom-serializer'].map((pkg) => ({
    find: new RegExp(`^${pkg}$`),
    replacement: entryAs('sanitize-html', pkg),
  })),
]

export default defineConfig(({ command }) => ({
  plugins: [UnoCSS(), cloudflare(), clientAssets(), reactByteLength()],
  resolve: {
    // Only React's streaming renderer goes into the production worker (see the module).
    alias: [
      ...workerAliases,
      ...(command === 'build'
        ? [
            {
              find: /^react-dom\/server(\.edge)?$/,
              replacement: resolve('worker/react-dom-server.ts'),
            },
          ]
        : []),
    ],
  },
  environments: {
    client: {
      build: { manifest: true, rollupOptions: { input: CLIENT_ENTRY } },
    },
    // The Worker minified: its upload (npm run bench's budget, 1 MB gzipped) went from 1,026,699
    // to 722,937 bytes gzipped. Stack traces stay readable: wrangler uploads the build's source
    // maps (on by default since 4.150), which Cloudflare applies to logs after the Worker runs.
    [WORKER_ENV]: {
      build: { minify: true },
    },
  },
  builder: {
    // The client goes first: the worker build reads its manifest for the hashed file names.
    async buildApp(builder) {
      await builder.build(builder.environments.client)
      await builder.build(builder.environments[WORKER_ENV])
    },
  },
}))
