// `npm run artwork`: the illustrations of the service pages, the portfolio's cases, the blog's
// articles and the about page (public/images/art/<name>.svg, 640×400). Each is a dashboard
// scene in the site's colours: a window with a chart, the subject's icon on a disc, a floating
// result card and the brand's star; no words, so one picture serves all six languages (the
// alt text comes from the locales). Drawn from a seed, so a run makes the same files again.
// The files are committed, so builds need neither this script nor anything it uses.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'

// The icon paths of client/components/icon.tsx (24×24 strokes), read from the source.
const iconSource = readFileSync(new URL('../client/components/icon.tsx', import.meta.url), 'utf8')
const ICONS = Object.fromEntries(
  [...iconSource.matchAll(/^\s+'?([a-z-]+)'?:\s*\n?\s*'([^']+)',/gm)].map((m) => [m[1], m[2]]),
)

const PALETTES = {
  blue: { bg: ['#eef4ff', '#dbe6ff'], main: '#2550d9', dark: '#1c358a', soft: '#bfd2ff' },
  amber: { bg: ['#fffbeb', '#fde68a'], main: '#d97706', dark: '#92400e', soft: '#fcd34d' },
  green: { bg: ['#ecfdf5', '#a7f3d0'], main: '#059669', dark: '#065f46', soft: '#6ee7b7' },
  violet: { bg: ['#f5f3ff', '#ddd6fe'], main: '#7c3aed', dark: '#4c1d95', soft: '#c4b5fd' },
  rose: { bg: ['#fff1f2', '#fecdd3'], main: '#e11d48', dark: '#881337', soft: '#fda4af' },
  teal: { bg: ['#f0fdfa', '#99f6e4'], main: '#0d9488', dark: '#134e4a', soft: '#5eead4' },
}

/** A small deterministic random source (mulberry32) seeded from the picture's name. */
function random(name) {
  let a = [...name].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 2654435761) >>> 0, 7)
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const r1 = (n) => Math.round(n * 10) / 10
const star = (x, y, s, fill) =>
  `<path transform="translate(${x} ${y}) scale(${s})" d="M0-11l2.6 8.4L11 0l-8.4 2.6L0 11l-2.6-8.4L-11 0l8.4-2.6Z" fill="${fill}"/>`
const icon = (name, x, y, size, stroke) =>
  `<g transform="translate(${x} ${y}) scale(${size / 24})" fill="none" stroke="${stroke}" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="${ICONS[name]}"/></g>`

/** The chart inside the window: a rising line, bars, a donut or a funnel. */
function chart(kind, p, rnd, x, y, w, h) {
  if (kind === 'line') {
    const n = 8
    const pts = Array.from({ length: n }, (_, i) => [
      x + (w * i) / (n - 1),
      y + h - h * (0.12 + (0.75 * i) / (n - 1) + (rnd() - 0.5) * 0.16),
    ])
    const line = pts.map(([px, py], i) => `${i ? 'L' : 'M'}${r1(px)} ${r1(py)}`).join(' ')
    const [lx, ly] = pts[n - 1]
    return `<path d="${line} L${x + w} ${y + h} L${x} ${y + h}Z" fill="${p.soft}" fill-opacity=".45"/><path d="${line}" fill="none" stroke="${p.main}" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"/><circle cx="${r1(lx)}" cy="${r1(ly)}" r="7" fill="#fff" stroke="${p.main}" stroke-width="4"/>`
  }
  if (kind === 'bars') {
    const n = 7
    const bw = w / n - 10
    return Array.from({ length: n }, (_, i) => {
      const bh = h * (0.25 + (0.7 * i) / (n - 1) + (rnd() - 0.5) * 0.12)
      return `<rect x="${r1(x + (w / n) * i + 5)}" y="${r1(y + h - bh)}" width="${r1(bw)}" height="${r1(bh)}" rx="5" fill="${i === n - 1 ? p.main : p.soft}"/>`
    }).join('')
  }
  if (kind === 'donut') {
    const cx = x + h / 2
    const cy = y + h / 2
    const r = h / 2 - 14
    const c = 2 * Math.PI * r
    const share = 0.55 + rnd() * 0.25
    const legend = [0, 1, 2]
      .map(
        (i) =>
          `<circle cx="${cx + r + 50}" cy="${cy - 30 + i * 30}" r="6" fill="${[p.main, p.soft, '#e2e8f0'][i]}"/><rect x="${cx + r + 66}" y="${cy - 35 + i * 30}" width="${70 + rnd() * 60}" height="10" rx="5" fill="#cbd5e1"/>`,
      )
      .join('')
    return `<circle cx="${cx}" cy="${cy}" r="${r}" fill="none" stroke="#e2e8f0" stroke-width="26"/><circle cx="${cx}" cy="${cy}" r="${r}" fill="none" stroke="${p.soft}" stroke-width="26" stroke-dasharray="${r1(c * 0.85)} ${r1(c)}" transform="rotate(-90 ${cx} ${cy})"/><circle cx="${cx}" cy="${cy}" r="${r}" fill="none" stroke="${p.main}" stroke-width="26" stroke-dasharray="${r1(c * share)} ${r1(c)}" transform="rotate(-90 ${cx} ${cy})"/>${legend}`
  }
  // funnel: widest stage on top, each narrower
  const stages = 4
  const sh = h / stages - 8
  return Array.from({ length: stages }, (_, i) => {
    const sw = w * (1 - i * 0.2)
    return `<rect x="${r1(x + (w - sw) / 2)}" y="${r1(y + i * (sh + 8))}" width="${r1(sw)}" height="${r1(sh)}" rx="8" fill="${i === stages - 1 ? p.main : p.soft}" fill-opacity="${i === stages - 1 ? 1 : 0.55 + i * 0.15}"/>`
  }).join('')
}

/** A dashboard scene: window with chart, icon disc, floating result card, stars. */
function scene(name, { iconName, palette, kind }) {
  const p = PALETTES[palette]
  const rnd = random(name)
  const flip = rnd() > 0.5
  // window on one side, icon disc on the other
  const wx = flip ? 200 : 40
  const dx = flip ? 130 : 510
  const cardX = flip ? 28 : 440
  const bars = [60 + rnd() * 50, 40 + rnd() * 60, 80 + rnd() * 40]
  return `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="400" viewBox="0 0 640 400">
<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${p.bg[0]}"/><stop offset="1" stop-color="${p.bg[1]}"/></linearGradient></defs>
<rect width="640" height="400" rx="24" fill="url(#bg)"/>
<circle cx="${flip ? 560 : 80}" cy="${60 + rnd() * 40}" r="${90 + rnd() * 40}" fill="#fff" fill-opacity=".35"/>
<circle cx="${flip ? 90 : 560}" cy="${330 + rnd() * 30}" r="${70 + rnd() * 30}" fill="${p.soft}" fill-opacity=".35"/>
<g><rect x="${wx}" y="60" width="400" height="290" rx="18" fill="#fff"/>
<rect x="${wx}" y="60" width="400" height="44" rx="18" fill="#f1f5f9"/><rect x="${wx}" y="86" width="400" height="18" fill="#f1f5f9"/>
<circle cx="${wx + 24}" cy="82" r="6" fill="#f87171"/><circle cx="${wx + 44}" cy="82" r="6" fill="#fbbf24"/><circle cx="${wx + 64}" cy="82" r="6" fill="#34d399"/>
<rect x="${wx + 150}" y="74" width="${110 + rnd() * 40}" height="14" rx="7" fill="#e2e8f0"/>
<rect x="${wx + 28}" y="126" width="${90 + rnd() * 60}" height="12" rx="6" fill="#cbd5e1"/><rect x="${wx + 28}" y="148" width="${60 + rnd() * 40}" height="20" rx="6" fill="${p.dark}"/>
${chart(kind, p, rnd, wx + 28, 190, 344, 136)}</g>
<circle cx="${dx}" cy="140" r="62" fill="${p.main}"/><circle cx="${dx}" cy="140" r="62" fill="none" stroke="#fff" stroke-opacity=".5" stroke-width="6"/>
${icon(iconName, dx - 30, 110, 60, '#fff')}
<g><rect x="${cardX}" y="238" width="172" height="96" rx="16" fill="#fff" stroke="#e2e8f0"/>
<circle cx="${cardX + 30}" cy="268" r="14" fill="${p.bg[0]}"/><path d="M${cardX + 22} 274l6-7 5 4 7-9" fill="none" stroke="${p.main}" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/>
<rect x="${cardX + 54}" y="260" width="${r1(bars[0])}" height="10" rx="5" fill="#cbd5e1"/>
<rect x="${cardX + 20}" y="296" width="${r1(bars[1])}" height="16" rx="6" fill="${p.dark}"/><rect x="${cardX + 28 + r1(bars[1])}" y="300" width="${r1(bars[2] / 2)}" height="8" rx="4" fill="${p.soft}"/></g>
${star(flip ? 600 : 470, 44, 1.3, '#fbbf24')}${star(flip ? 40 : 600, 200, 0.8, p.main)}${star(dx + 70, 230, 0.6, '#fbbf24')}
</svg>
`
}

/** The about page: two teams, UK and Nigeria, around a globe. */
function team() {
  const p = PALETTES.blue
  const person = (x, y, shirt, skin) =>
    `<circle cx="${x}" cy="${y}" r="22" fill="${skin}"/><path d="M${x - 40} ${y + 78}a40 40 0 0 1 80 0Z" fill="${shirt}"/>`
  return `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="400" viewBox="0 0 640 400">
<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${p.bg[0]}"/><stop offset="1" stop-color="${p.bg[1]}"/></linearGradient></defs>
<rect width="640" height="400" rx="24" fill="url(#bg)"/>
<circle cx="320" cy="170" r="96" fill="#fff"/>
<g fill="none" stroke="${p.main}" stroke-width="5"><circle cx="320" cy="170" r="78"/><path d="M242 170h156M320 92a120 120 0 0 1 0 156a120 120 0 0 1 0-156"/></g>
<path d="M236 250c40 40 128 40 168 0" fill="none" stroke="${p.soft}" stroke-width="4" stroke-dasharray="2 10" stroke-linecap="round"/>
<g><path d="M298 110c0-9 7-16 16-16s16 7 16 16c0 12-16 26-16 26s-16-14-16-26Z" fill="#e11d48"/><circle cx="314" cy="110" r="6" fill="#fff"/></g>
<g><path d="M318 178c0-9 7-16 16-16s16 7 16 16c0 12-16 26-16 26s-16-14-16-26Z" fill="#059669"/><circle cx="334" cy="178" r="6" fill="#fff"/></g>
<g><rect x="40" y="220" width="190" height="140" rx="20" fill="#fff"/>${person(95, 262, p.main, '#f1c7a5')}${person(170, 262, '#fbbf24', '#8d5524')}</g>
<g><rect x="410" y="220" width="190" height="140" rx="20" fill="#fff"/>${person(465, 262, '#059669', '#5c3a21')}${person(540, 262, p.dark, '#c68642')}</g>
<g><rect x="60" y="48" width="150" height="70" rx="16" fill="#fff"/><rect x="78" y="66" width="70" height="10" rx="5" fill="#cbd5e1"/><rect x="78" y="86" width="100" height="16" rx="6" fill="${p.dark}"/></g>
<g><rect x="432" y="48" width="150" height="70" rx="16" fill="#fff"/><path d="M452 96l14-16 12 10 18-22" fill="none" stroke="#059669" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"/><rect x="508" y="70" width="54" height="10" rx="5" fill="#cbd5e1"/></g>
${star(320, 330, 1.6, '#fbbf24')}${star(250, 60, 0.8, p.main)}${star(392, 300, 0.7, '#fbbf24')}
</svg>
`
}

/** Every picture: name → what it shows. */
export const ARTWORK = {
  // the service pages (worker/data/services.ts)
  'service-amazon': { iconName: 'cart', palette: 'amber', kind: 'bars' },
  'service-shopify': { iconName: 'bag', palette: 'green', kind: 'line' },
  'service-etsy': { iconName: 'store', palette: 'rose', kind: 'bars' },
  'service-ecommerce-marketing': { iconName: 'cart', palette: 'blue', kind: 'donut' },
  'service-social-media-marketing': { iconName: 'megaphone', palette: 'violet', kind: 'line' },
  'service-social-media-management': { iconName: 'calendar', palette: 'teal', kind: 'bars' },
  'service-email-marketing': { iconName: 'mail', palette: 'blue', kind: 'funnel' },
  'service-affiliate-marketing': { iconName: 'link', palette: 'green', kind: 'donut' },
  'service-web-development': { iconName: 'code', palette: 'blue', kind: 'line' },
  'service-saas-strategy': { iconName: 'rocket', palette: 'violet', kind: 'funnel' },
  'service-content-writing': { iconName: 'pen', palette: 'amber', kind: 'line' },
  'service-graphic-design': { iconName: 'palette', palette: 'rose', kind: 'donut' },
  'service-gmb-optimization': { iconName: 'pin', palette: 'teal', kind: 'bars' },
  // the portfolio's six cases, in the order of portfolio.cases
  'case-amazon-skincare': { iconName: 'cart', palette: 'amber', kind: 'line' },
  'case-shopify-home': { iconName: 'bag', palette: 'green', kind: 'funnel' },
  'case-etsy-jewelry': { iconName: 'store', palette: 'rose', kind: 'line' },
  'case-saas-pipeline': { iconName: 'rocket', palette: 'violet', kind: 'bars' },
  'case-local-clinic': { iconName: 'pin', palette: 'teal', kind: 'line' },
  'case-fashion-social': { iconName: 'megaphone', palette: 'blue', kind: 'bars' },
  // the blog's articles (worker/data/blog.ts)
  'article-amazon-listings-guide': { iconName: 'search', palette: 'amber', kind: 'bars' },
  'article-gmb-optimization-guide': { iconName: 'pin', palette: 'teal', kind: 'donut' },
  'article-amazon-sales-strategies': { iconName: 'cart', palette: 'amber', kind: 'line' },
  'article-social-media-trends': { iconName: 'megaphone', palette: 'violet', kind: 'bars' },
  'article-email-marketing-automation': { iconName: 'mail', palette: 'blue', kind: 'funnel' },
  'article-shopify-seo-guide': { iconName: 'search', palette: 'green', kind: 'line' },
  'article-affiliate-marketing-guide': { iconName: 'link', palette: 'green', kind: 'donut' },
  'article-tiktok-shop-guide': { iconName: 'store', palette: 'rose', kind: 'bars' },
  'article-sales-funnels-guide': { iconName: 'target', palette: 'blue', kind: 'funnel' },
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = new URL('../public/images/art/', import.meta.url)
  mkdirSync(dir, { recursive: true })
  const write = (name, svg) => {
    writeFileSync(new URL(`${name}.svg`, dir), svg)
    console.log(`public/images/art/${name}.svg ${(svg.length / 1024).toFixed(1)} KB`)
  }
  for (const [name, spec] of Object.entries(ARTWORK)) {
    if (!ICONS[spec.iconName]) throw new Error(`${name}: no icon "${spec.iconName}"`)
    write(name, scene(name, spec))
  }
  write('about-team', team())
}
