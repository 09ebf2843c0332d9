// `npm run fonts`: the Arabic face, cut down to what Arabic pages need, into client/fonts/.
// From the variable Noto Sans Arabic of @fontsource-variable/noto-sans-arabic (weights 100–900,
// 162 KiB for its Arabic subset) it keeps:
// - the Arabic block U+0600–06FF (letters of Arabic, Persian and Urdu, harakat, digits,
//   punctuation) and the joiners U+200C–200E, with every contextual form and ligature the font
//   reaches from them (HarfBuzz keeps the layout closure); the supplements, extended blocks and
//   presentation forms, which the site's text never uses, fall to the system font;
// - the weights 400 to 700; base.css draws 400 and 500 at 400, 600 to 800 at 700, as the static
//   faces did.
// One file of about 37 KiB instead of two static faces (400 and 700) of 48 and 49 KiB; two
// static faces cut the same way would be 42 KiB in two files.
// The file is committed, so builds need neither this script nor the source package; base.css's
// unicode-range must stay the ranges kept here.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import subsetFont from 'subset-font'

const require = createRequire(import.meta.url)
const PACKAGE = '@fontsource-variable/noto-sans-arabic'
const SOURCE = require.resolve(`${PACKAGE}/files/noto-sans-arabic-arabic-wght-normal.woff2`)
const OUT = 'client/fonts/noto-sans-arabic-arabic-wght-400-700.woff2'
/** Keep in step with the face's unicode-range in client/styles/base.css. */
const RANGES = [
  [0x0600, 0x06ff],
  [0x200c, 0x200e],
]

const text = RANGES.flatMap(([from, to]) =>
  Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i)),
).join('')
const source = readFileSync(SOURCE)
const subset = await subsetFont(source, text, {
  targetFormat: 'woff2',
  variationAxes: { wght: { min: 400, max: 700 } },
})
mkdirSync('client/fonts', { recursive: true })
writeFileSync(OUT, subset)
// the SIL Open Font License travels with the font
copyFileSync(require.resolve(`${PACKAGE}/LICENSE`), 'client/fonts/OFL-noto-sans-arabic.txt')
const kib = (n) => (n / 1024).toFixed(1)
console.log(`${OUT} ${kib(subset.length)} KiB (from ${kib(source.length)} KiB)`)
