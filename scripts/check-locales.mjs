// Compares every locale with locales/en.json: same keys, same list lengths, no empty strings,
// the same {{placeholders}}. Usage: node scripts/check-locales.mjs [lang...]
import { readdirSync, readFileSync } from 'node:fs'

const load = (lang) =>
  JSON.parse(readFileSync(new URL(`../locales/${lang}.json`, import.meta.url), 'utf8'))
const placeholders = (s) =>
  [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)]
    .map((m) => m[1])
    .sort()
    .join(',')

export function compare(en, other, path = '', problems = []) {
  if (typeof en === 'string') {
    if (typeof other !== 'string') problems.push(`${path}: missing or not a string`)
    else if (!other.trim()) problems.push(`${path}: empty`)
    else if (placeholders(en) !== placeholders(other)) problems.push(`${path}: placeholders differ`)
  } else if (Array.isArray(en)) {
    if (!Array.isArray(other) || other.length !== en.length)
      problems.push(`${path}: list length differs`)
    else en.forEach((v, i) => compare(v, other[i], `${path}[${i}]`, problems))
  } else if (en && typeof en === 'object') {
    if (!other || typeof other !== 'object') problems.push(`${path}: missing`)
    else
      for (const k of Object.keys(en)) compare(en[k], other[k], path ? `${path}.${k}` : k, problems)
  }
  return problems
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const langs = process.argv.slice(2).length
    ? process.argv.slice(2)
    : readdirSync(new URL('../locales/', import.meta.url))
        .filter((f) => f.endsWith('.json') && f !== 'en.json')
        .map((f) => f.replace(/\.json$/, ''))
  let bad = 0
  for (const lang of langs) {
    // the site's strings, and the free guides' text
    const problems = [
      ...compare(load('en'), load(lang)),
      ...compare(load('guides/en'), load(`guides/${lang}`), 'guides'),
    ]
    bad += problems.length
    console.log(`${lang}: ${problems.length ? problems.length + ' problems' : 'complete'}`)
    for (const p of problems.slice(0, 40)) console.log('  ' + p)
  }
  process.exit(bad ? 1 : 0)
}
