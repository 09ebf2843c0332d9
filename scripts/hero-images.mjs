// `npm run hero-images`: the three hero pictures (SPEC §9) as lossless WebP, drawn from the SVG
// artwork in scripts/hero-art/ at 1× and 2× their layout width (public/images/<name>-<w>.webp).
// Raster, not SVG, on the page: Chromium builds a whole isolated document for every SVG <img>
// on the main thread (about 55 ms for these three on a phone), a WebP decodes off it.
// The images are committed, so builds need neither this script nor the artwork.
import sharp from 'sharp'

const HERO_ART = { 'hero-dashboard': 560, 'hero-campaign': 240, 'hero-orders': 240 }

for (const [name, width] of Object.entries(HERO_ART))
  for (const scale of [1, 2]) {
    const out = `public/images/${name}-${width * scale}.webp`
    const info = await sharp(new URL(`hero-art/${name}.svg`, import.meta.url).pathname, {
      density: 72 * scale,
    })
      .resize(width * scale)
      .webp({ lossless: true, effort: 6 })
      .toFile(out)
    console.log(`${out} ${info.width}×${info.height} ${(info.size / 1024).toFixed(1)} KB`)
  }
