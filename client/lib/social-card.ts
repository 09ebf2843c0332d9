/**
 * An article's social card (1200×630), drawn by the editor's browser on a canvas: the browser
 * shapes every script and lays Arabic out right to left with the site's own fonts, which no
 * renderer that fits in the Worker does (docs/decisions/007-social-cards.md). The look is the
 * seeded articles' cards' (scripts/og-images.mjs): the brand at the top, the title at the
 * bottom, a yellow bar; over the cover, cropped to fill, or else the site's blue.
 */

import { CARD_HEIGHT, CARD_WIDTH } from './media-picture'

const PAD = 80
const FONT = "'Inter Variable', 'Noto Sans Arabic', system-ui, sans-serif"

export interface CardText {
  title: string
  lang: string
  dir: 'ltr' | 'rtl'
  siteName: string
}

/** The card as a JPEG. `cover`: the article's picture, decoded (null: the site's design). */
export async function drawCard(text: CardText, cover: ImageBitmap | null): Promise<Blob> {
  const canvas = document.createElement('canvas')
  canvas.width = CARD_WIDTH
  canvas.height = CARD_HEIGHT
  // the language picks the glyphs (Arabic forms, German quotes) as it does in the page
  canvas.lang = text.lang
  canvas.dir = text.dir
  const ctx = canvas.getContext('2d')!
  ctx.direction = text.dir
  await Promise.all([
    document.fonts.load(`800 64px ${FONT}`, text.title),
    document.fonts.load(`800 34px ${FONT}`, text.siteName),
  ])

  if (cover) {
    // cropped to fill, centred, then darkened towards the title for contrast
    const scale = Math.max(CARD_WIDTH / cover.width, CARD_HEIGHT / cover.height)
    const w = cover.width * scale
    const h = cover.height * scale
    ctx.drawImage(cover, (CARD_WIDTH - w) / 2, (CARD_HEIGHT - h) / 2, w, h)
    const shade = ctx.createLinearGradient(0, 0, 0, CARD_HEIGHT)
    shade.addColorStop(0, 'rgba(15, 23, 42, 0.55)')
    shade.addColorStop(0.35, 'rgba(15, 23, 42, 0.35)')
    shade.addColorStop(1, 'rgba(15, 23, 42, 0.9)')
    ctx.fillStyle = shade
  } else {
    const blue = ctx.createLinearGradient(0, 0, CARD_WIDTH, CARD_HEIGHT)
    blue.addColorStop(0, '#172554')
    blue.addColorStop(1, '#1d3fb0')
    ctx.fillStyle = blue
    ctx.fillRect(0, 0, CARD_WIDTH, CARD_HEIGHT)
    const glow = ctx.createRadialGradient(1020, 126, 0, 1020, 126, 560)
    glow.addColorStop(0, '#3b6cf6')
    glow.addColorStop(1, 'rgba(59, 108, 246, 0)')
    ctx.fillStyle = glow
  }
  ctx.fillRect(0, 0, CARD_WIDTH, CARD_HEIGHT)

  const rtl = text.dir === 'rtl'
  // x of the start edge, and a box of `width` placed at the start
  const start = rtl ? CARD_WIDTH - PAD : PAD
  const boxAt = (width: number) => (rtl ? CARD_WIDTH - PAD - width : PAD)
  ctx.textAlign = rtl ? 'right' : 'left'
  ctx.textBaseline = 'alphabetic'
  ctx.fillStyle = '#fff'

  // the brand: the logo's star in its square, the site's name
  drawLogo(ctx, boxAt(64), 64)
  ctx.font = `800 34px ${FONT}`
  ctx.fillText(text.siteName, rtl ? start - 84 : start + 84, 64 + 44)

  // the title: the largest size at which it takes at most four lines
  const maxWidth = CARD_WIDTH - 2 * PAD
  let size = 76
  let lines = wrap(ctx, text.title, size, maxWidth)
  while (lines.length > 4 && size > 44) {
    size -= 6
    lines = wrap(ctx, text.title, size, maxWidth)
  }
  if (lines.length > 4)
    lines = [...lines.slice(0, 3), ellipsis(ctx, lines.slice(3).join(' '), maxWidth)]
  const lineHeight = Math.round(size * (rtl ? 1.35 : 1.14))
  const barTop = CARD_HEIGHT - 72 - 10
  let y = barTop - 44 - (lines.length - 1) * lineHeight
  ctx.font = `800 ${size}px ${FONT}`
  for (const line of lines) {
    ctx.fillText(line, start, y, maxWidth)
    y += lineHeight
  }
  ctx.fillStyle = '#fbbf24'
  roundRect(ctx, boxAt(180), barTop, 180, 10, 5)
  ctx.fill()

  return new Promise((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('no card'))), 'image/jpeg', 0.86),
  )
}

/** The words of `title` in lines no wider than `maxWidth` at `size` (any script: by spaces). */
function wrap(ctx: CanvasRenderingContext2D, title: string, size: number, maxWidth: number) {
  ctx.font = `800 ${size}px ${FONT}`
  const lines: string[] = []
  let line = ''
  for (const word of title.trim().split(/\s+/)) {
    const next = line ? `${line} ${word}` : word
    if (line && ctx.measureText(next).width > maxWidth) {
      lines.push(line)
      line = word
    } else line = next
  }
  if (line) lines.push(line)
  return lines
}

function ellipsis(ctx: CanvasRenderingContext2D, text: string, maxWidth: number) {
  let words = text.split(' ')
  while (words.length > 1 && ctx.measureText(`${words.join(' ')}…`).width > maxWidth)
    words = words.slice(0, -1)
  return `${words.join(' ')}…`
}

function roundRect(
  ctx: CanvasRenderingContext2D,
  x: number,
  y: number,
  w: number,
  h: number,
  r: number,
) {
  ctx.beginPath()
  ctx.roundRect(x, y, w, h, r)
}

/** The site's mark (public/favicon.svg), 64 pixels square, its corner at (x, y). */
function drawLogo(ctx: CanvasRenderingContext2D, x: number, y: number) {
  const s = 64 / 32
  ctx.save()
  ctx.translate(x, y)
  ctx.scale(s, s)
  ctx.fillStyle = '#2550d9'
  roundRect(ctx, 0, 0, 32, 32, 8)
  ctx.fill()
  ctx.strokeStyle = '#fff'
  ctx.lineWidth = 0.8
  ctx.stroke()
  ctx.fillStyle = '#fbbf24'
  ctx.fill(new Path2D('M16 5l2.6 8.4L27 16l-8.4 2.6L16 27l-2.6-8.4L5 16l8.4-2.6Z'))
  ctx.restore()
}
