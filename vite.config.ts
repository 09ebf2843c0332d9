import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { cloudflare } from '@cloudflare/vite-plugin'
import UnoCSS from 'unocss/vite'
import { blogContent } from './scripts/blog-content'
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
        return `export default ${JSON.stringify({ scripts: ['/@vite/client', '/' + CLIENT_ENTRY], styles: [], fonts: [] })}`
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
      })}`
    },
  }
}

/**
 * React's server renderer counts every piece of HTML it writes in UTF-8 bytes (only to decide
 * which Suspense boundaries to stream apart) with `Buffer.byteLength`, which in workerd is a
 * call into its Node compatibility layer: a third of the home page's CPU there. The same count
 * in plain JavaScript, a loop V8 compiles, in the one build the worker bundles
 * (worker/react-dom-server.ts). The build fails if React's function is no longer there.
 */
export function reactByteLength(): Plugin {
  const file = 'react-dom-server.bun.production.js'
  const call = 'return Buffer.byteLength(chunk, "utf8");'
  // exact for well-formed text: 1 byte below U+0080, 2 below U+0800, 4 per surrogate pair;
  // most pieces are ASCII, which one native regular expression test tells
  const utf8Length = `
var NOT_ASCII = /[^\\0-\\x7f]/;
function utf8Length(s) {
  var n = s.length;
  if (!NOT_ASCII.test(s)) return n;
  for (var i = 0; i < s.length; i++) {
    var c = s.charCodeAt(i);
    if (c >= 0x80) n += c < 0x800 || (c >= 0xd800 && c < 0xe000) ? 1 : 2;
  }
  return n;
}
`
  return {
    name: 'react-byte-length',
    enforce: 'pre',
    apply: 'build',
    transform(code, id) {
      if (!id.endsWith(file)) return
      if (!code.includes(call)) this.error(`${file}: byteLengthOfChunk changed (vite.config.ts)`)
      return { code: code.replace(call, 'return utf8Length(chunk);') + utf8Length, map: null }
    },
  }
}

export default defineConfig(({ command }) => ({
  plugins: [UnoCSS(), cloudflare(), clientAssets(), blogContent(), reactByteLength()],
  resolve: {
    // Only React's streaming renderer goes into the production worker (see the module).
    alias:
      command === 'build'
        ? [
            {
              find: /^react-dom\/server(\.edge)?$/,
              replacement: resolve('worker/react-dom-server.ts'),
            },
          ]
        : [],
  },
  environments: {
    client: {
      build: { manifest: true, rollupOptions: { input: CLIENT_ENTRY } },
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
