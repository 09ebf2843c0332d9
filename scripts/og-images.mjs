// `npm run og-images`: the social card of each page type in each language (1200×630 JPEG,
// public/og/<type>-<lang>.jpg), and of each blog article (public/og/blog/<slug>-<lang>.jpg:
// its title beside its illustration), drawn by Chromium from the locale texts and the
// articles' front matter. Run it after changing those texts (`-- --articles` for the articles
// only); the images are committed, so builds need no browser.
import { mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { chromium } from 'playwright-core'
import { parse as parseYaml } from 'yaml'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './lib/server.mjs'

// every language with a locale file
const LANGS = readdirSync(new URL('../locales/', import.meta.url))
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.replace(/\.json$/, ''))
const font = (p) =>
  `data:font/woff2;base64,${readFileSync(new URL(`../node_modules/${p}`, import.meta.url)).toString('base64')}`
const inter = font('@fontsource-variable/inter/files/inter-latin-wght-normal.woff2')
const interExt = font('@fontsource-variable/inter/files/inter-latin-ext-wght-normal.woff2')
const arabic = font('@fontsource/noto-sans-arabic/files/noto-sans-arabic-arabic-700-normal.woff2')

const TYPES = {
  home: (t) => [t.hero.title, t.meta.tagline],
  services: (t) => [t.services.title, t.services.subtitle],
  blog: (t) => [t.blog.title, t.blog.subtitle],
  page: (t) => [t.meta.site_name, t.meta.tagline],
}

const escape = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;')
const page = (
  lang,
  title,
  subtitle,
  name,
) => `<!doctype html><html lang="${lang}" dir="${new Intl.Locale(lang).textInfo?.direction ?? 'ltr'}"><head><style>
@font-face{font-family:Inter;src:url(${inter}) format('woff2');font-weight:100 900;unicode-range:U+0000-00FF,U+2000-206F}
@font-face{font-family:Inter;src:url(${interExt}) format('woff2');font-weight:100 900;unicode-range:U+0100-02AF}
@font-face{font-family:Arabic;src:url(${arabic}) format('woff2');font-weight:700}
*{margin:0;box-sizing:border-box}body{width:1200px;height:630px;font-family:Inter,Arabic,sans-serif;color:#fff;
background:radial-gradient(circle at 85% 20%,#3b6cf6 0,transparent 45%),linear-gradient(135deg,#172554,#1d3fb0);display:flex;flex-direction:column;justify-content:space-between;padding:72px 80px}
.brand{display:flex;align-items:center;gap:20px;font-size:34px;font-weight:800}
h1{font-size:${title.length > 40 ? 64 : 76}px;line-height:1.12;font-weight:800;max-width:1000px}
p{font-size:30px;line-height:1.35;color:#dbe6ff;max-width:980px;margin-top:24px}
.bar{height:10px;width:180px;border-radius:5px;background:#fbbf24}
</style></head><body>
<div class="brand"><svg width="64" height="64" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#2550d9" stroke="#fff" stroke-width=".8"/><path d="M16 5l2.6 8.4L27 16l-8.4 2.6L16 27l-2.6-8.4L5 16l8.4-2.6Z" fill="#fbbf24"/></svg>${escape(name)}</div>
<div><h1>${escape(title)}</h1><p>${escape(subtitle)}</p></div><div class="bar"></div></body></html>`

/** An article's card: the brand, its title and summary beside its illustration. */
const articlePage = (lang, title, art, name) =>
  page(lang, title, '', name)
    .replace('max-width:1000px', 'max-width:600px')
    .replace(
      /font-size:\d+px;line-height:1.12/,
      `font-size:${title.length > 60 ? 50 : 58}px;line-height:1.15`,
    )
    .replace(
      '</style>',
      `.art{position:absolute;top:150px;inset-inline-end:70px;width:440px;height:275px;border-radius:24px;box-shadow:0 20px 50px #0006}</style>`,
    )
    .replace(
      '<div class="bar">',
      `<img class="art" src="data:image/svg+xml;base64,${Buffer.from(art).toString('base64')}" alt=""><div class="bar">`,
    )

const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
const tab = await browser.newPage({ viewport: { width: 1200, height: 630 } })
const onlyArticles = process.argv.includes('--articles')
mkdirSync(new URL('../public/og/blog/', import.meta.url), { recursive: true })
for (const lang of LANGS) {
  const t = JSON.parse(readFileSync(new URL(`../locales/${lang}.json`, import.meta.url), 'utf8'))
  const dir = new URL(`../locales/blog/${lang}/`, import.meta.url)
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.md'))) {
    const slug = file.replace(/\.md$/, '')
    const front = parseYaml(readFileSync(new URL(file, dir), 'utf8').split('---')[1])
    const art = readFileSync(
      new URL(`../public/images/art/article-${slug}.svg`, import.meta.url),
      'utf8',
    )
    await tab.setContent(articlePage(lang, front.title, art, t.meta.site_name))
    await tab.evaluate(() => document.fonts.ready)
    const out = `public/og/blog/${slug}-${lang}.jpg`
    await tab.screenshot({ path: out, type: 'jpeg', quality: 80 })
    console.log(out)
  }
}
for (const lang of onlyArticles ? [] : LANGS) {
  const t = JSON.parse(readFileSync(new URL(`../locales/${lang}.json`, import.meta.url), 'utf8'))
  for (const [type, texts] of Object.entries(TYPES)) {
    const [title, subtitle] = texts(t)
    await tab.setContent(page(lang, title, subtitle, t.meta.site_name))
    await tab.evaluate(() => document.fonts.ready)
    const out = `public/og/${type}-${lang}.jpg`
    await tab.screenshot({ path: out, type: 'jpeg', quality: 85 })
    console.log(out)
  }
}
await browser.close()
