// Compares every locale with locales/en.json: same keys, same list lengths, no empty strings,
// the same {{placeholders}}, and for a string with a count (an object of plural forms, as
// `{ "one": …, "other": … }` in English) exactly the forms the language's plural rules have
// (Intl.PluralRules: Arabic six). Usage: node scripts/check-locales.mjs [lang...]
import { readdirSync, readFileSync } from 'node:fs'

const load = (lang) =>
  JSON.parse(readFileSync(new URL(`../locales/${lang}.json`, import.meta.url), 'utf8'))
const placeholders = (s) =>
  [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)]
    .map((m) => m[1])
    .sort()
    .join(',')

const FORMS = ['zero', 'one', 'two', 'few', 'many', 'other']
/** An object of plural forms: CLDR's names only, `other` among them. */
const isPlural = (v) =>
  !!v && typeof v === 'object' && 'other' in v && Object.keys(v).every((k) => FORMS.includes(k))
const formsOf = (lang) => new Intl.PluralRules(lang).resolvedOptions().pluralCategories

/** The plural forms of `other` in `lang`: each one the language has, each with en's placeholders. */
function comparePlural(en, other, lang, path, problems) {
  if (!isPlural(other)) return problems.push(`${path}: missing or not plural forms`)
  const want = formsOf(lang)
  for (const form of want) {
    const text = other[form]
    if (typeof text !== 'string') problems.push(`${path}.${form}: missing plural form`)
    else if (!text.trim()) problems.push(`${path}.${form}: empty`)
    else {
      // a form may leave the number out ("une minute"), never add one; 'other' has them all
      const have = placeholders(text).split(',').filter(Boolean)
      const all = placeholders(en.other).split(',').filter(Boolean)
      if (form === 'other' ? have.join() !== all.join() : have.some((p) => !all.includes(p)))
        problems.push(`${path}.${form}: placeholders differ`)
    }
  }
  for (const form of Object.keys(other))
    if (!want.includes(form)) problems.push(`${path}.${form}: not a plural form of ${lang}`)
}

/** The problems of `other` (the dictionary of `lang`) against English's `en`. */
export function compare(en, other, lang, path = '', problems = []) {
  if (isPlural(en)) comparePlural(en, other, lang, path, problems)
  else if (typeof en === 'string') {
    if (typeof other !== 'string') problems.push(`${path}: missing or not a string`)
    else if (!other.trim()) problems.push(`${path}: empty`)
    else if (placeholders(en) !== placeholders(other)) problems.push(`${path}: placeholders differ`)
  } else if (Array.isArray(en)) {
    if (!Array.isArray(other) || other.length !== en.length)
      problems.push(`${path}: list length differs`)
    else en.forEach((v, i) => compare(v, other[i], lang, `${path}[${i}]`, problems))
  } else if (en && typeof en === 'object') {
    if (!other || typeof other !== 'object') problems.push(`${path}: missing`)
    else
      for (const k of Object.keys(en))
        compare(en[k], other[k], lang, path ? `${path}.${k}` : k, problems)
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
      ...compare(load('en'), load('en'), 'en'),
      ...compare(load('en'), load(lang), lang),
      ...compare(load('guides/en'), load(`guides/${lang}`), lang, 'guides'),
    ]
    bad += problems.length
    console.log(`${lang}: ${problems.length ? problems.length + ' problems' : 'complete'}`)
    for (const p of problems.slice(0, 40)) console.log('  ' + p)
  }
  process.exit(bad ? 1 : 0)
}
