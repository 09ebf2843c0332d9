import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import ar from '../../locales/ar.json'
import en from '../../locales/en.json'
import { seriousViolations } from './audit'
import { useBrowser } from './browser'
import { query } from './d1'
import { signInStaff } from './staff'

// The agency publishes an article from the desk: written in English with a cover, translated
// into Arabic, published, seen by an anonymous visitor at once everywhere it belongs, and gone
// from all of it when unpublished.

const { open, baseURL } = useBrowser()
const c = en.desk.content

describe('content edited in the desk', () => {
  it('a staff member writes, translates, publishes and unpublishes an article', async () => {
    const page = await open('/')
    const staff = await signInStaff(page)
    const slug = `desk-article-${crypto.randomUUID().slice(0, 6)}`
    const title = `Selling on Etsy in winter ${slug.slice(-6)}`
    const arTitle = `البيع على Etsy في الشتاء ${slug.slice(-6)}`

    // English first, with a cover picture
    await page.goto('/desk/content/article')
    await page.getByRole('link', { name: c.new.article }).click()
    await page.getByLabel(c.fields.slug).fill(slug)
    await page.getByLabel(c.fields.category, { exact: true }).fill('etsy')
    const cover = await sharp({
      create: { width: 1200, height: 675, channels: 3, background: '#1c358a' },
    })
      .webp()
      .toBuffer()
    await page.getByLabel(c.cover_upload).setInputFiles({
      name: 'winter.webp',
      mimeType: 'image/webp',
      buffer: cover,
    })
    await page.getByLabel(c.fields.title).fill(title)
    await page.getByLabel(c.fields.excerpt).fill('Five things that sell when it is cold outside.')
    const description = page.getByLabel(c.fields.description)
    await description.fill('Too short')
    // the count follows the typing
    await expect
      .poll(() => page.locator('#f-text-description-count').textContent())
      .toBe(c.count.other.replace('{{n}}', '9').replace('{{min}}', '50').replace('{{max}}', '160'))
    await description.fill(
      'What Etsy buyers look for in winter, and how to make your listings ready for it.',
    )
    await page.getByLabel(c.fields.category_label).fill('Etsy')
    await page.getByLabel(c.fields.author).fill('Maya Writer')
    await page.getByLabel(c.fields.cover_alt).fill('A deep blue winter banner')
    // the live preview is the public page's rendering, sanitised
    await page
      .getByLabel(c.fields.body)
      .fill('## Cosy gifts\n\nBundle **scarves** with cards.\n\n<script>alert(1)</script>')
    const preview = page.getByRole('region', { name: c.preview })
    await expect.poll(() => preview.locator('h2#cosy-gifts').count()).toBe(1)
    expect(await preview.locator('strong').textContent()).toBe('scarves')
    expect(await preview.locator('script').count()).toBe(0)
    expect(await preview.textContent()).toContain('<script>alert(1)</script>')
    await page.getByRole('button', { name: c.save, exact: true }).click()
    await page.waitForURL(/done=save/)
    expect(await page.getByRole('status').first().textContent()).toContain(c.done.save)

    // the Arabic version, then publish
    await page
      .getByRole('navigation', { name: c.languages })
      .getByRole('link', { name: /العربية/ })
      .click()
    await page.waitForURL(/tab=ar/)
    await page.getByLabel(c.fields.title).fill(arTitle)
    await page.getByLabel(c.fields.excerpt).fill('خمسة أشياء تُباع عندما يكون الطقس باردًا.')
    await page
      .getByLabel(c.fields.description)
      .fill('ما الذي يبحث عنه مشترو Etsy في الشتاء، وكيف تجهّز قوائمك لذلك قبل الموسم.')
    await page.getByLabel(c.fields.category_label).fill('إتسي')
    await page.getByLabel(c.fields.author).fill('مايا')
    await page.getByLabel(c.fields.cover_alt).fill('لافتة شتوية زرقاء داكنة')
    await page.getByLabel(c.fields.body).fill('## هدايا دافئة\n\nاجمع **الأوشحة** مع البطاقات.')
    await page.getByRole('button', { name: c.publish }).click()
    await page.waitForURL(/done=publish/)
    const [item] = await query<{ status: string; langs: string }>(
      `SELECT status, (SELECT group_concat(lang) FROM content_texts WHERE item_id = i.id) AS langs
       FROM content_items i WHERE slug = '${slug}'`,
    )
    expect({ ...item, langs: item.langs.split(',').sort() }).toEqual({
      status: 'published',
      langs: ['ar', 'en'],
    })

    // an anonymous visitor, on the next request, in English and Arabic
    const visitor = await open('/blog')
    const seeIn = async (lang: 'en' | 'ar') => {
      const q = lang === 'en' ? '' : '?lang=ar'
      const name = lang === 'en' ? title : arTitle
      await visitor.goto(`/blog${q}`)
      const card = visitor.getByRole('link', { name })
      const listed = await card.count()
      await visitor.goto(`/blog/${slug}${q}`)
      const h1 = await visitor.locator('h1').textContent()
      const img = visitor.locator('main img[src^="/media/"]').first()
      const picture = {
        alt: await img.getAttribute('alt'),
        width: await img.getAttribute('width'),
        height: await img.getAttribute('height'),
        loaded: await img.evaluate(async (el: HTMLImageElement) => {
          await el.decode().catch(() => undefined)
          return el.naturalWidth
        }),
      }
      const sitemap = await (await visitor.request.get(`${baseURL}/sitemap.xml`)).text()
      const rss = await (await visitor.request.get(`${baseURL}/blog/rss.xml?lang=${lang}`)).text()
      return {
        listed,
        h1,
        picture,
        inSitemap: sitemap.includes(`/blog/${slug}${lang === 'en' ? '<' : '?lang=ar<'}`),
        inRss: rss.includes(name),
      }
    }
    expect(await seeIn('en')).toEqual({
      listed: 1,
      h1: title,
      picture: { alt: 'A deep blue winter banner', width: '1200', height: '675', loaded: 1200 },
      inSitemap: true,
      inRss: true,
    })
    expect(await seeIn('ar')).toEqual({
      listed: 1,
      h1: arTitle,
      picture: { alt: 'لافتة شتوية زرقاء داكنة', width: '1200', height: '675', loaded: 1200 },
      inSitemap: true,
      inRss: true,
    })
    // not in the other languages' lists (no translation there yet)
    await visitor.goto('/blog?lang=fr')
    expect(await visitor.locator(`a[href="/blog/${slug}"]`).count()).toBe(0)

    // the editor and the lists, in English and Arabic, as axe reads them
    const editor = new URL(page.url()).pathname
    expect(
      await seriousViolations(
        page,
        ['en', 'ar'].flatMap((lang) => [
          `/desk/content/article?lang=${lang}`,
          `${editor}?tab=${lang}&lang=${lang}`,
          `/desk/content/plan?lang=${lang}`,
        ]),
      ),
    ).toEqual([])

    // unpublished: gone from the lists, its page, the sitemap and the feeds, at once
    await page.goto(`${editor}?tab=en`)
    await page.getByRole('button', { name: c.unpublish }).click()
    await page.waitForURL(/done=unpublish/)
    for (const lang of ['en', 'ar'] as const) {
      const q = lang === 'en' ? '' : '?lang=ar'
      await visitor.goto(`/blog${q}`)
      expect(await visitor.locator(`a[href="/blog/${slug}"]`).count()).toBe(0)
      expect((await visitor.goto(`/blog/${slug}${q}`))!.status()).toBe(404)
      expect(await (await visitor.request.get(`${baseURL}/sitemap.xml`)).text()).not.toContain(slug)
      expect(
        await (await visitor.request.get(`${baseURL}/blog/rss.xml?lang=${lang}`)).text(),
      ).not.toContain(slug)
    }
    // who did what, in the desk's audit log
    expect(
      (
        await query<{ action: string }>(
          `SELECT action FROM desk_audit WHERE actor_email = '${staff}' ORDER BY id`,
        )
      ).map((r) => r.action),
    ).toEqual(['content.save', 'content.publish', 'content.unpublish'])
    expect(ar.desk.content.publish).not.toBe(c.publish)
    await visitor.context().close()
    await page.context().close()
  })
})
