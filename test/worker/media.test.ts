import { createExecutionContext, env, SELF, waitOnExecutionContext } from 'cloudflare:test'
import { imageSize } from 'image-size'
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { SITE } from './auth/helpers'
import { person } from './desk/helpers'
import worker from '../../worker/index'
import type { MediaJob } from '../../worker/content/media-sizes-job'
import animated from '../fixtures/pictures/animated.webp?inline'
import huge from '../fixtures/pictures/huge.png?inline'
import heic from '../fixtures/pictures/photo.heic?inline'
import phone from '../fixtures/pictures/phone.jpg?inline'
import rotated from '../fixtures/pictures/rotated.jpg?inline'

// The desk's pictures (worker/content/media.ts) as the site serves them: sizes made at upload
// through the Images binding (Miniflare's, on sharp), metadata gone, refusals leaving nothing.
// The fixtures are made by test/fixtures/pictures/make.mjs.

const bytesOf = (dataUrl: string) =>
  Uint8Array.from(atob(dataUrl.split(',')[1]!), (c) => c.charCodeAt(0))

let staff: { email: string; cookie: string }
beforeAll(async () => {
  staff = await person({ staff: true, secondFactor: true })
})

/** The Markdown toolbar's upload, as the editor's island sends it. */
function upload(dataUrl: string, filename: string) {
  const form = new FormData()
  form.append('picture', new File([bytesOf(dataUrl)], filename))
  return SELF.fetch(`${SITE}/desk/content/media`, {
    method: 'POST',
    body: form,
    headers: { Cookie: staff.cookie, Origin: SITE, Accept: 'application/json' },
  })
}

/** The same upload, answered by the Worker with these bindings (a queue held back, a failing service). */
async function uploadWith(bindings: typeof env, bytes: Uint8Array, filename: string) {
  const form = new FormData()
  form.append('picture', new File([bytes], filename))
  const ctx = createExecutionContext()
  const res = await worker.fetch(
    new Request(`${SITE}/desk/content/media`, {
      method: 'POST',
      body: form,
      headers: { Cookie: staff.cookie, Origin: SITE, Accept: 'application/json' },
    }),
    bindings,
    ctx,
  )
  await waitOnExecutionContext(ctx)
  return res
}

const IMMUTABLE = 'public, max-age=31536000, immutable'

const served = async (name: string) => {
  const res = await SELF.fetch(`${SITE}/media/${name}`)
  expect(res.status, name).toBe(200)
  expect(res.headers.get('Cache-Control')).toBe(IMMUTABLE)
  return { type: res.headers.get('Content-Type'), bytes: new Uint8Array(await res.arrayBuffer()) }
}

const has = (bytes: Uint8Array, needle: string | number[]) => {
  const n = typeof needle === 'string' ? [...needle].map((c) => c.charCodeAt(0)) : needle
  outer: for (let i = 0; i + n.length <= bytes.length; i++) {
    for (let j = 0; j < n.length; j++) if (bytes[i + j] !== n[j]) continue outer
    return true
  }
  return false
}
/** EXIF (JPEG's APP1 and AVIF's item both start `Exif\0\0`; WebP's chunk is `EXIF`) or XMP. */
const metadataIn = (bytes: Uint8Array) =>
  has(bytes, 'Exif\0\0') ||
  has(bytes, 'EXIF') ||
  has(bytes, 'xmpmeta') ||
  has(bytes, 'ns.adobe.com')
/** The GPS IFD's tag (0x8825), little-endian as the fixture writes it, and its latitude ref. */
const gpsIn = (bytes: Uint8Array) => has(bytes, [0x25, 0x88, 0x04, 0x00])

/**
 * Waits until the queue's jobs have made every size of the pictures uploaded so far (a phone
 * photo's twelve take some 10 s here, over a minute when the machine is loaded: a hang guard).
 */
async function sizesMade() {
  for (let i = 0; i < 1800; i++) {
    const left = await env.DB.prepare(
      `SELECT count(*) AS n FROM media WHERE sizes_state = 'pending'`,
    ).first<{ n: number }>()
    if (!left!.n) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error('the sizes were not made within three minutes')
}

async function stored() {
  await sizesMade()
  const objects = await env.MEDIA.list()
  const rows = await env.DB.prepare('SELECT count(*) AS n FROM media').first<{ n: number }>()
  return { objects: objects.objects.length, rows: rows!.n }
}

describe('an upload', { timeout: 240_000 }, () => {
  it('of a phone photo answers with one size a phone can use, serves it for every width until the queue job has made the rest in AVIF and WebP, and nothing served keeps its EXIF or GPS', async () => {
    const original = bytesOf(phone)
    // the fixture does carry what must not be published
    expect(metadataIn(original) && gpsIn(original)).toBe(true)
    expect(imageSize(original)).toMatchObject({ width: 4032, height: 3024 })

    // the queue's job held back, as a reader who opens the page at once finds it before it ran
    const held: MediaJob[] = []
    const queue = { send: async (job: MediaJob) => void held.push(job) } as unknown as Queue
    const letGo = async () => {
      for (const job of held.splice(0)) await env.MEDIA_QUEUE.send(job)
    }
    // whatever happens here, the tests after it do not wait on a job never sent
    onTestFinished(letGo)
    const res = await uploadWith({ ...env, MEDIA_QUEUE: queue }, bytesOf(phone), 'IMG_0001.jpg')
    expect(res.status).toBe(201)
    const { media } = (await res.json()) as {
      media: { name: string; width: number; height: number; widths: number[] }
    }
    expect(media).toMatchObject({
      width: 4032,
      height: 3024,
      widths: [480, 640, 800, 960, 1280, 1600],
    })
    expect(held).toEqual([{ sizes: media.name }])
    const hash = media.name.slice(0, 32)
    // made before the answer: the size near 1280 pixels wide, in WebP, kept like every size
    const first = await served(`${hash}-1280.webp`)
    expect(first.type).toBe('image/webp')
    expect(imageSize(first.bytes)).toMatchObject({ width: 1280, height: 960, type: 'webp' })
    expect(first.bytes.byteLength).toBeLessThanOrEqual(400 * 1024)
    expect(metadataIn(first.bytes) || gpsIn(first.bytes)).toBe(false)
    // until the others are made, every width of the srcset serves it, for a minute only; never
    // the picture itself (4032 pixels wide)
    for (const width of media.widths)
      for (const ext of ['avif', 'webp']) {
        if (width === 1280 && ext === 'webp') continue
        const name = `${hash}-${width}.${ext}`
        const early = await SELF.fetch(`${SITE}/media/${name}`)
        expect(early.status, name).toBe(200)
        expect(early.headers.get('Cache-Control'), name).toBe('public, max-age=60')
        expect(early.headers.get('Content-Type'), name).toBe('image/webp')
        expect(new Uint8Array(await early.arrayBuffer()), name).toEqual(first.bytes)
      }
    // the queue's job, let go: it makes the sizes left
    await letGo()
    await sizesMade()

    const files = [
      media.name,
      ...media.widths.flatMap((w) => [`${hash}-${w}.avif`, `${hash}-${w}.webp`]),
    ]
    for (const name of files) {
      const { type, bytes } = await served(name)
      expect(metadataIn(bytes), name).toBe(false)
      expect(gpsIn(bytes), name).toBe(false)
      const size = imageSize(bytes)
      const asked = Number(/-(\d+)\./.exec(name)?.[1] ?? 4032)
      expect(size.width, name).toBe(asked)
      expect(size.height, name).toBe(Math.round((asked * 3024) / 4032))
      expect(type, name).toBe(
        name.endsWith('.avif')
          ? 'image/avif'
          : name.endsWith('.webp')
            ? 'image/webp'
            : 'image/jpeg',
      )
      expect(size.type, name).toBe(
        name.split('.').at(-1) === 'jpg' ? 'jpg' : name.split('.').at(-1),
      )
    }
    // the same photo again is the same picture, made once
    const again = await upload(phone, 'copy.jpg')
    expect(((await again.json()) as { media: { name: string } }).media.name).toBe(media.name)
    // a size that was not made, or a name outside the pattern, is not found
    expect((await SELF.fetch(`${SITE}/media/${hash}-2000.webp`)).status).toBe(404)
    expect((await SELF.fetch(`${SITE}/media/${hash}-480.jpg`)).status).toBe(404)
  })

  it('of a photo stored on its side (EXIF orientation 6) is served upright', async () => {
    expect(imageSize(bytesOf(rotated))).toMatchObject({ width: 600, height: 400, orientation: 6 })
    const res = await upload(rotated, 'portrait.jpg')
    expect(res.status).toBe(201)
    const { media } = (await res.json()) as {
      media: { name: string; width: number; height: number; widths: number[] }
    }
    // a portrait: the stored width is its height now, and no size is wider than it
    expect(media).toMatchObject({ width: 400, height: 600, widths: [400] })
    await sizesMade()
    const hash = media.name.slice(0, 32)
    for (const name of [media.name, `${hash}-400.webp`, `${hash}-400.avif`]) {
      const { bytes } = await served(name)
      expect(imageSize(bytes), name).toMatchObject({ width: 400, height: 600 })
      expect(metadataIn(bytes), name).toBe(false)
    }
    // and turned the right way: the red band of its stored left edge is now at the top
    const pixels = await decodePng(env.IMAGES, (await served(`${hash}-400.webp`)).bytes, 40)
    const at = (x: number, y: number) => pixels.rgb(x, y)
    expect(isRed(at(20, 1)), `top ${at(20, 1)}`).toBe(true)
    expect(isRed(at(20, 58)), `bottom ${at(20, 58)}`).toBe(false)
    expect(isRed(at(1, 30)), `left ${at(1, 30)}`).toBe(false)
    expect(isRed(at(38, 30)), `right ${at(38, 30)}`).toBe(false)
  })
})

describe('a picture stored before sizes were made', { timeout: 60_000 }, () => {
  it('uploaded again, gets its sizes and its served file loses its metadata', async () => {
    const bytes = bytesOf(rotated)
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))
    const name = `${[...digest.slice(0, 16)].map((b) => b.toString(16).padStart(2, '0')).join('')}.jpg`
    await env.MEDIA.delete(name)
    await env.DB.prepare('DELETE FROM media WHERE name = ?').bind(name).run()
    // as the desk stored it before: the bytes as uploaded, no sizes
    await env.MEDIA.put(name, bytes, { httpMetadata: { contentType: 'image/jpeg' } })
    await env.DB.prepare(
      `INSERT INTO media (name, type, width, height, bytes, uploaded_by) VALUES (?, 'image/jpeg', 600, 400, ?, 'old')`,
    )
      .bind(name, bytes.byteLength)
      .run()
    expect(metadataIn((await served(name)).bytes)).toBe(true)
    const res = await upload(rotated, 'again.jpg')
    expect(((await res.json()) as { media: unknown }).media).toEqual({
      name,
      width: 400,
      height: 600,
      widths: [400],
    })
    expect(metadataIn((await served(name)).bytes)).toBe(false)
    expect(imageSize((await served(name)).bytes)).toMatchObject({ width: 400, height: 600 })
    await sizesMade()
    expect((await served(`${name.slice(0, 32)}-400.avif`)).type).toBe('image/avif')
  })
})

describe('a picture uploaded before first sizes were made, its sizes still pending', () => {
  it('serves itself for its sizes meanwhile (there is nothing else), for a minute only', async () => {
    const name = `${'ef'.repeat(16)}.jpg`
    const bytes = bytesOf(rotated)
    await env.MEDIA.put(name, bytes, {
      httpMetadata: { contentType: 'image/jpeg', cacheControl: IMMUTABLE },
      customMetadata: { widths: '400' },
    })
    const res = await SELF.fetch(`${SITE}/media/${name.slice(0, 32)}-400.avif`)
    expect(res.status).toBe(200)
    expect(res.headers.get('Cache-Control')).toBe('public, max-age=60')
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes)
    expect((await SELF.fetch(`${SITE}/media/${name.slice(0, 32)}-480.avif`)).status).toBe(404)
    await env.MEDIA.delete(name)
  })
})

describe('a picture a browser cannot use', () => {
  it.each([
    ['an iPhone’s HEIC', heic, 'IMG_0002.heic', 'HEIC photos (an iPhone’s own format)'],
    ['a 20000×20000 PNG', huge, 'poster.png', 'larger than 8000 pixels on a side'],
    ['an animated WebP', animated, 'banner.webp', 'This picture is animated.'],
  ])(
    '%s is refused with the field’s message, and nothing of it is kept',
    async (_, file, name, says) => {
      const before = await stored()
      const res = await upload(file, name)
      expect(res.status).toBe(400)
      expect(((await res.json()) as { error: string }).error).toContain(says.replace('’', "'"))
      expect(await stored()).toEqual(before)
    },
  )
})

describe('when Cloudflare’s image service refuses', () => {
  /** An Images binding that refuses every picture, as the edge's does past the free plan's limit. */
  const refusing = (error: Error) =>
    ({
      input: () => {
        const chain = {
          transform: () => chain,
          output: () => Promise.reject(error),
        }
        return chain
      },
      info: () => Promise.reject(error),
    }) as unknown as ImagesBinding

  /** The real binding, refusing only the sizes (an output of a given width) with `error`. */
  const refusingSizes = (error: Error) =>
    ({
      input: (stream: ReadableStream<Uint8Array>) => {
        let image = env.IMAGES.input(stream)
        let sized = false
        const chain = {
          transform: (step: ImageTransform) => {
            sized ||= step.width !== undefined
            image = image.transform(step)
            return chain
          },
          output: (options: ImageOutputOptions) =>
            sized ? Promise.reject(error) : image.output(options),
        }
        return chain
      },
      info: (stream: ReadableStream<Uint8Array>) => env.IMAGES.info(stream),
    }) as unknown as ImagesBinding

  const limit = () => Object.assign(new Error('IMAGES_TRANSFORM_ERROR 9422'), { code: 9422 })
  it.each([
    ['its monthly limit (9422)', refusing(limit())],
    ['an outage', refusing(new Error('Network connection lost.'))],
    ['its monthly limit, reached between the picture and its first size', refusingSizes(limit())],
  ])('%s: the upload says so (not “not a picture”), and nothing is kept', async (_, images) => {
    const before = await stored()
    // a photo not stored before (bytes after the JPEG's end change its hash only)
    const fresh = new Uint8Array([...bytesOf(phone), ...crypto.getRandomValues(new Uint8Array(8))])
    const res = await uploadWith({ ...env, IMAGES: images }, fresh, 'shop-front.jpg')
    expect(res.status).toBe(503)
    const { error: says } = (await res.json()) as { error: string }
    expect(says).toContain("Cloudflare's image service refused")
    expect(says).not.toContain('not a JPEG')
    expect(await stored()).toEqual(before)
  })
})

const isRed = ([r, g, b]: number[]) => r! > 150 && g! < 100 && b! < 100

/**
 * A picture's pixels, `width` wide: the binding makes a PNG of it, read here (inflate and the
 * five row filters of the PNG specification; 8-bit RGB or RGBA, as sharp writes them).
 */
async function decodePng(images: ImagesBinding, bytes: Uint8Array, width: number) {
  const out = await images
    .input(new Blob([bytes]).stream())
    .transform({ width })
    .output({ format: 'image/png' })
  const png = new Uint8Array(await out.response().arrayBuffer())
  const view = new DataView(png.buffer)
  const w = view.getUint32(16)
  const h = view.getUint32(20)
  const channels = png[25] === 6 ? 4 : 3
  const idat: Uint8Array[] = []
  for (let at = 8; at < png.length;) {
    const length = view.getUint32(at)
    if (String.fromCharCode(...png.subarray(at + 4, at + 8)) === 'IDAT')
      idat.push(png.subarray(at + 8, at + 8 + length))
    at += 12 + length
  }
  const raw = new Uint8Array(
    await new Response(
      new Blob(idat).stream().pipeThrough(new DecompressionStream('deflate')),
    ).arrayBuffer(),
  )
  const stride = w * channels
  const pixels = new Uint8Array(h * stride)
  for (let y = 0; y < h; y++) {
    const filter = raw[y * (stride + 1)]!
    for (let x = 0; x < stride; x++) {
      const v = raw[y * (stride + 1) + 1 + x]!
      const a = x >= channels ? pixels[y * stride + x - channels]! : 0
      const b = y > 0 ? pixels[(y - 1) * stride + x]! : 0
      const c = x >= channels && y > 0 ? pixels[(y - 1) * stride + x - channels]! : 0
      const p = a + b - c
      const pa = Math.abs(p - a)
      const pb = Math.abs(p - b)
      const pc = Math.abs(p - c)
      const paeth = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
      const predicted = [0, a, b, (a + b) >> 1, paeth][filter]!
      pixels[y * stride + x] = (v + predicted) & 0xff
    }
  }
  return {
    rgb: (x: number, y: number) => [
      ...pixels.subarray(y * stride + x * channels, y * stride + x * channels + 3),
    ],
  }
}

/** A new article saved from the desk's editor: the fields every article needs, then `fields`. */
function saveArticle(fields: Record<string, string>, picture?: File) {
  const form = new FormData()
  for (const [k, v] of Object.entries({
    version: '0',
    lang: 'en',
    category: 'amazon',
    'text.excerpt': 'A short excerpt of the article for the list.',
    'text.description': 'A meta description long enough to pass the fifty character minimum.',
    'text.category_label': 'Amazon',
    'text.author': 'Ada Editor',
    ...fields,
  }))
    form.append(k, v)
  if (picture) form.append('picture', picture)
  return SELF.fetch(`${SITE}/desk/content/article/new`, {
    method: 'POST',
    body: form,
    headers: { Cookie: staff.cookie, Origin: SITE },
    redirect: 'manual',
  })
}

describe('an article’s pictures', { timeout: 60_000 }, () => {
  it('are offered in their sizes, with their width and height; the cover first, the body’s lazily', async () => {
    const body = (await (await upload(rotated, 'portrait.jpg')).json()) as {
      media: { name: string }
    }
    const slug = `pictures-${Date.now().toString(36)}`
    const saved = await saveArticle(
      {
        action: 'publish',
        slug,
        'text.title': 'A phone photo as a cover',
        'text.cover_alt': 'A gradient of blues',
        'text.body': `## First part\n\n![A red band on grey](/media/${body.media.name})\n\nText.`,
      },
      new File([bytesOf(phone)], 'IMG_0001.jpg'),
    )
    expect(saved.status).toBe(303)
    await sizesMade()
    const page = await (await SELF.fetch(`${SITE}/blog/${slug}`)).text()
    const pictures = [...page.matchAll(/<picture>(.*?)<\/picture>/g)].map((m) => m[1]!)
    expect(pictures).toHaveLength(2)
    const [cover, inBody] = pictures as [string, string]
    expect(cover).toMatch(
      /<source type="image\/avif" srcSet="\/media\/[0-9a-f]{32}-480\.avif 480w, .*-1600\.avif 1600w" sizes="\(min-width: 820px\) 768px, calc\(100vw - 2rem\)"\/>/,
    )
    expect(cover).toMatch(
      /<img src="\/media\/[0-9a-f]{32}-960\.webp" srcSet="[^"]*-480\.webp 480w[^"]*" sizes="[^"]+" width="4032" height="3024" alt="A gradient of blues" fetchPriority="high"/,
    )
    expect(cover).not.toContain('loading="lazy"')
    expect(inBody).toContain('<source type="image/avif" srcset="/media/')
    expect(inBody).toMatch(
      /<img src="\/media\/[0-9a-f]{32}-400\.webp" srcset="[^"]+ 400w" sizes="[^"]+" width="400" height="600" alt="A red band on grey" loading="lazy"/,
    )
    // search engines read the cover, at its size, beside the social card
    const graph = JSON.parse(
      /<script type="application\/ld\+json"[^>]*>(.*?)<\/script>/.exec(page)![1]!,
    ) as { '@graph': { '@type': string; image?: { url: string }[] }[] }
    const posting = graph['@graph'].find((n) => n['@type'] === 'BlogPosting')!
    expect(posting.image).toEqual([
      { '@type': 'ImageObject', url: `${SITE}/og/blog-en.jpg`, width: 1200, height: 630 },
      {
        '@type': 'ImageObject',
        url: expect.stringMatching(new RegExp(`^${SITE}/media/[0-9a-f]{32}\\.jpg$`)),
        width: 4032,
        height: 3024,
      },
    ])
    await served(posting.image![1]!.url.replace(`${SITE}/media/`, ''))
    // a feed reader shows the cover's size the page's <img> falls back to, absolute
    const feed = await (await SELF.fetch(`${SITE}/blog/rss.xml?lang=en`)).text()
    const item = new RegExp(
      `<item>(?:(?!</item>).)*?/blog/${slug}<(?:(?!</item>).)*</item>`,
      's',
    ).exec(feed)![0]
    const src = /<img src="(\/media\/[0-9a-f]{32}-960\.webp)"/.exec(cover)![1]!
    expect(item).toContain(
      `<media:content url="${SITE}${src}" medium="image" type="image/webp" width="960" height="720"/>`,
    )
    expect((await served(src.slice('/media/'.length))).type).toBe('image/webp')
  })
})

describe('an article’s social card', { timeout: 60_000 }, () => {
  it('is stored with the save and shared while its title and cover are current', async () => {
    const card = await (
      await env.IMAGES.input(new Blob([bytesOf(rotated)]).stream())
        // cover: Cloudflare's default fit (scale-down) never enlarges, and the photo is smaller
        .transform({ width: 1200, height: 630, fit: 'cover' })
        .output({ format: 'image/jpeg' })
    )
      .response()
      .arrayBuffer()
    expect(imageSize(new Uint8Array(card))).toMatchObject({ width: 1200, height: 630 })
    const slug = `card-${Date.now().toString(36)}`
    const fields = (title: string, version: number, action = 'publish') => ({
      version: String(version),
      lang: 'en',
      action,
      slug,
      category: 'amazon',
      'text.title': title,
      'text.excerpt': 'A short excerpt of the article for the list.',
      'text.description': 'A meta description long enough to pass the fifty character minimum.',
      'text.category_label': 'Amazon',
      'text.author': 'Ada Editor',
      'text.body': 'Text.',
    })
    const post = async (
      path: string,
      values: Record<string, string>,
      files: Record<string, File>,
    ) => {
      const form = new FormData()
      for (const [k, v] of Object.entries(values)) form.append(k, v)
      for (const [k, v] of Object.entries(files)) form.append(k, v)
      const res = await SELF.fetch(`${SITE}${path}`, {
        method: 'POST',
        body: form,
        headers: { Cookie: staff.cookie, Origin: SITE },
        redirect: 'manual',
      })
      expect(res.status).toBe(303)
      return new URL(res.headers.get('Location')!, SITE).pathname
    }
    const shared = async () => {
      const page = await (await SELF.fetch(`${SITE}/blog/${slug}`)).text()
      const meta = (p: string) =>
        new RegExp(`<meta (?:property|name)="${p}" content="([^"]*)"`).exec(page)?.[1]
      return {
        og: meta('og:image')
          ?.replace(SITE, '')
          .replace(/[0-9a-f]{32}/, '<hash>'),
        twitter: meta('twitter:image') === meta('og:image'),
        width: meta('og:image:width'),
        height: meta('og:image:height'),
        alt: meta('twitter:image:alt'),
      }
    }
    // a card that is not a 1200×630 JPEG is not taken (here: a PNG of the same size)
    const png = await (
      await env.IMAGES.input(new Blob([new Uint8Array(card)]).stream()).output({
        format: 'image/png',
      })
    )
      .response()
      .arrayBuffer()
    const editor = await post('/desk/content/article/new', fields('A card of its own', 0), {
      card_en: new File([png], 'card-en.jpg'),
    })
    expect((await shared()).og).toBe('/og/blog-en.jpg')
    await post(editor, fields('A card of its own', 1, 'save'), {
      card_en: new File([card], 'card-en.jpg'),
    })
    expect(await shared()).toEqual({
      og: '/media/<hash>.jpg',
      twitter: true,
      width: '1200',
      height: '630',
      alt: 'A card of its own | Northstar Growth',
    })
    const name = /\/media\/([0-9a-f]{32}\.jpg)/.exec(
      await (await SELF.fetch(`${SITE}/blog/${slug}`)).text(),
    )![1]!
    expect((await served(name)).bytes.byteLength).toBe(card.byteLength)
    // a new title without its card: the blog's card again, until one is drawn for it
    await post(editor, fields('A card of its own, renamed', 2, 'save'), {})
    expect((await shared()).og).toBe('/og/blog-en.jpg')
  })
})

describe('a picture whose sizes fail', { timeout: 60_000 }, () => {
  /** One delivery of the queue's message, as the queue makes it on this attempt. */
  const deliver = async (name: string, attempts: number) => {
    const message = {
      id: crypto.randomUUID(),
      timestamp: new Date(),
      body: { sizes: name },
      attempts,
      acked: false,
      retried: null as null | { delaySeconds?: number },
      ack() {
        this.acked = true
      },
      retry(options?: { delaySeconds?: number }) {
        this.retried = options ?? {}
      },
    }
    const ctx = createExecutionContext()
    await worker.queue(
      {
        queue: 'growth-agency-media',
        messages: [message],
        ackAll() {},
        retryAll() {},
        metadata: {} as MessageBatchMetadata,
      } as unknown as MessageBatch<never>,
      env as never,
    )
    await waitOnExecutionContext(ctx)
    return message
  }

  it('is tried again, then shown in the editor with a retry that queues it anew', async () => {
    // a picture whose stored file is gone: every attempt at its sizes fails
    const name = `${'ab'.repeat(16)}.jpg`
    await env.DB.prepare(
      `INSERT INTO media (name, type, width, height, bytes, uploaded_by, widths, sizes_state)
       VALUES (?, 'image/jpeg', 800, 600, 1000, 'test', '[480, 640, 800]', 'pending')`,
    )
      .bind(name)
      .run()
    const state = () =>
      env.DB.prepare('SELECT sizes_state AS s, sizes_error AS e FROM media WHERE name = ?')
        .bind(name)
        .first<{ s: string; e: string | null }>()

    const first = await deliver(name, 1)
    expect(first.acked).toBe(false)
    expect(first.retried).toEqual({ delaySeconds: 15 })
    expect(await state()).toMatchObject({ s: 'pending', e: expect.stringContaining('not in') })
    // the article never waits on it: its size URLs answer 404 only because the file is gone
    const last = await deliver(name, 5)
    expect(last.acked).toBe(true)
    expect((await state())!.s).toBe('failed')

    // an article with it as its cover says so in the editor, in English and Arabic
    const saved = await saveArticle({
      action: 'save',
      slug: `sizes-${Date.now().toString(36)}`,
      cover: name,
      'text.title': 'A cover whose sizes failed',
      'text.cover_alt': 'A cover',
      'text.body': 'Some text.',
    })
    expect(saved.status).toBe(303)
    const editor = saved.headers.get('Location')!
    for (const lang of ['en', 'ar'] as const) {
      const page = await (
        await SELF.fetch(`${SITE}${editor}`, {
          headers: { Cookie: `${staff.cookie}; preferred-language=${lang}` },
        })
      ).text()
      const says = lang === 'en' ? 'could not be made' : 'تعذّر إنشاء المقاسات الأصغر'
      expect(page).toContain(says)
      expect(page).toContain(`action="/desk/content/media/${name}/sizes"`)
    }
    const retry = await SELF.fetch(`${SITE}/desk/content/media/${name}/sizes`, {
      method: 'POST',
      body: new URLSearchParams({ back: editor }),
      headers: { Cookie: staff.cookie, Origin: SITE },
      redirect: 'manual',
    })
    expect(retry.status).toBe(303)
    expect(retry.headers.get('Location')).toBe(editor)
    expect((await state())!.s).toBe('pending')
    // from another site, or for a picture that does not exist: nothing
    const cross = await SELF.fetch(`${SITE}/desk/content/media/${name}/sizes`, {
      method: 'POST',
      body: new URLSearchParams({ back: editor }),
      headers: { Cookie: staff.cookie, Origin: 'https://evil.example' },
      redirect: 'manual',
    })
    expect(cross.status).toBe(403)
    const unknown = await SELF.fetch(`${SITE}/desk/content/media/${'cd'.repeat(16)}.jpg/sizes`, {
      method: 'POST',
      headers: { Cookie: staff.cookie, Origin: SITE },
      redirect: 'manual',
    })
    expect(unknown.status).toBe(404)
    await env.DB.prepare(`UPDATE media SET sizes_state = 'done' WHERE name = ?`).bind(name).run()
  })
})
