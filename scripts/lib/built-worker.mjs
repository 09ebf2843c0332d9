// The built Worker's modules (dist/growth_agency): its main module and the chunks it imports,
// at once or on first use (`await import(…)`), which `wrangler deploy` uploads beside it and
// Miniflare must be handed one by one.
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'

export const BUILD = 'dist/growth_agency'

/** Every module of the build, the main one first: paths within `dir`. */
export function builtModules(dir = BUILD) {
  const { main } = JSON.parse(readFileSync(join(dir, 'wrangler.json'), 'utf8'))
  const found = [main]
  for (let i = 0; i < found.length; i++) {
    const code = readFileSync(join(dir, found[i]), 'utf8')
    // relative specifiers only (packages are bundled); one named in a comment is no file here
    for (const [, spec] of code.matchAll(/\b(?:from|import)\s*\(?\s*["'](\.\.?\/[^"']+)["']/g)) {
      const path = normalize(join(dirname(found[i]), spec))
      if (!found.includes(path) && existsSync(join(dir, path))) found.push(path)
    }
  }
  return found
}

/** The build's modules as Miniflare takes them (its options `modulesRoot` and `modules`). */
export const miniflareModules = (dir = BUILD) => ({
  modulesRoot: dir,
  modules: builtModules(dir).map((path) => ({ type: 'ESModule', path: join(dir, path) })),
})
