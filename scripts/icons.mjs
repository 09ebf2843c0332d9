// `npm run icons`: the site's icons from public/favicon.svg — /favicon.ico (16, 32 and 48 px
// PNGs in one ICO file, for browsers and tools that ask for it by name), the Apple touch icon
// (180 px, square and opaque: iOS rounds the corners itself) and the web app manifest's icons
// (192 and 512 px, and a maskable 512 px one whose star stays inside the safe circle).
// The files are committed, so builds need neither this script nor sharp.
import { readFileSync, writeFileSync } from 'node:fs'
import sharp from 'sharp'

const svg = readFileSync(new URL('../public/favicon.svg', import.meta.url), 'utf8')
// The same star on a full square (no rounded corners, no transparency); `inset` shrinks it.
const square = (inset = 0) => {
  const scale = 1 - 2 * inset
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="#2550d9"/><g transform="translate(${16 - 16 * scale} ${16 - 16 * scale}) scale(${scale})"><path d="M16 5l2.6 8.4L27 16l-8.4 2.6L16 27l-2.6-8.4L5 16l8.4-2.6Z" fill="#fbbf24"/></g></svg>`,
  )
}
const png = (input, size) =>
  sharp(input, { density: (72 * size) / 32 })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toBuffer()

/** An ICO file holding PNG images (supported by every browser since 2009). */
function ico(images) {
  const header = Buffer.alloc(6 + 16 * images.length)
  header.writeUInt16LE(0, 0) // reserved
  header.writeUInt16LE(1, 2) // type: icon
  header.writeUInt16LE(images.length, 4)
  let offset = header.length
  images.forEach(({ size, data }, i) => {
    const entry = 6 + 16 * i
    header.writeUInt8(size % 256, entry) // width (0 means 256)
    header.writeUInt8(size % 256, entry + 1) // height
    header.writeUInt8(0, entry + 2) // no palette
    header.writeUInt8(0, entry + 3)
    header.writeUInt16LE(1, entry + 4) // colour planes
    header.writeUInt16LE(32, entry + 6) // bits per pixel
    header.writeUInt32LE(data.length, entry + 8)
    header.writeUInt32LE(offset, entry + 12)
    offset += data.length
  })
  return Buffer.concat([header, ...images.map((i) => i.data)])
}

const out = (name, data) => {
  writeFileSync(new URL(`../public/${name}`, import.meta.url), data)
  console.log(`public/${name} ${(data.length / 1024).toFixed(1)} KB`)
}

const sizes = [16, 32, 48]
out(
  'favicon.ico',
  ico(
    await Promise.all(
      sizes.map(async (size) => ({ size, data: await png(Buffer.from(svg), size) })),
    ),
  ),
)
out('apple-touch-icon.png', await png(square(), 180))
out('icons/icon-192.png', await png(Buffer.from(svg), 192))
out('icons/icon-512.png', await png(Buffer.from(svg), 512))
// maskable: launchers cut anything outside the central 80 % circle
out('icons/icon-maskable-512.png', await png(square(0.12), 512))
