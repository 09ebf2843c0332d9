import { env, SELF } from 'cloudflare:test'
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { beforeAll, describe, expect, it } from 'vitest'
import en from '../../../locales/en.json'
import { LANGS } from '../../../client/lib/languages'
import { formValues, KIND_FIELDS, readFields, type FieldSpec } from '../../../worker/content/kinds'
import { renderMarkdown } from '../../../worker/content/markdown'
import { findItem, publishDue } from '../../../worker/db/content'
import { CONTENT_KINDS, type ContentKind } from '../../../worker/db/content-kinds'
import worker from '../../../worker/index'
import { SITE } from '../auth/helpers'
import { get, person, post } from './helpers'

// The desk's content (worker/desk/content.tsx): saves, versions, the cron's publishing and the
// edge cache following every change.

let staff: { email: string; cookie: string }
beforeAll(async () => {
  staff = await person({ staff: true, secondFactor: true })
})

/** The editor's form posted as the browser posts it (multipart), by an Admin unless named. */
function save(path: string, fields: Record<string, string | File>, cookie = staff.cookie) {
  const form = new FormData()
  for (const [k, v] of Object.entries(fields)) form.append(k, v)
  return SELF.fetch(SITE + path, {
    method: 'POST',
    body: form,
    headers: { Cookie: cookie, Origin: SITE },
    redirect: 'manual',
  })
}

let n = 0
/** An article's English fields, unique per call. */
function article(over: Record<string, string> = {}) {
  n++
  return {
    version: '0',
    lang: 'en',
    action: 'save',
    slug: `desk-test-${n}-${Date.now().toString(36)}`,
    category: 'amazon',
    'text.title': `Desk test article ${n}`,
    'text.excerpt': 'A short excerpt of the article for the list.',
    'text.description': 'A meta description long enough to pass the fifty character minimum.',
    'text.category_label': 'Amazon',
    'text.author': 'Ada Editor',
    'text.body': '## First part\n\nSome **text**.',
    ...over,
  }
}

const itemOf = async (res: Response) => {
  expect(res.status).toBe(303)
  const url = new URL(res.headers.get('Location')!, SITE)
  return { id: Number(url.pathname.split('/').at(-1)), done: url.searchParams.get('done') }
}

const row = (id: number) =>
  env.DB.prepare('SELECT * FROM content_items WHERE id = ?').bind(id).first<{
    status: string
    version: number
    publish_at: string | null
    slug: string
  }>()

describe('the sanitiser', () => {
  it('neutralises scripts, event attributes, javascript: and data: links and HTML in Markdown', () => {
    const { html } = renderMarkdown(
      [
        '<script>alert(1)</script>',
        '',
        '<img src=x onerror="alert(2)"> <a href="https://example.com" onclick="alert(3)">x</a>',
        '',
        '[one](javascript:alert(4)) [two](JAVASCRIPT:alert(5)) [three](data:text/html;base64,PHNjcmlwdD4=)',
        '',
        '![outside](https://evil.example/p.png) ![ours](/media/0123456789abcdef0123456789abcdef.webp)',
        '',
        '<div><iframe src="https://evil.example"></iframe><p style="x">nested *html*</p></div>',
        '',
        '[fine](https://example.com/a) [ours](/contact)',
      ].join('\n'),
    )
    // what was written as HTML is shown as text, never as markup
    expect(html).not.toMatch(
      /<script|<iframe|<div>|<p style|<img src="x"|<a href="https:\/\/example.com" onclick/i,
    )
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    // no event attribute and no script or data URL in any tag (as text, they are harmless)
    expect(html).not.toMatch(/<[^>]*\son\w+=/i)
    expect(html).not.toMatch(/<[^>]*(javascript:|data:)/i)
    expect(html).toContain('<a>one</a>')
    expect(html).toContain('<a>three</a>')
    // pictures only from our own store
    expect(html).not.toContain('evil.example/p.png')
    expect(html).toContain('<img src="/media/0123456789abcdef0123456789abcdef.webp" alt="ours"')
    expect(html).toContain('<a href="https://example.com/a">fine</a>')
    expect(html).toContain('<a href="/contact">ours</a>')
  })

  it('keeps what articles are made of: sections with ids, lists, tables, checklists', () => {
    const { html, headings } = renderMarkdown(
      '## Plan A\n\n- [ ] one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n## Plan A',
    )
    expect(headings).toEqual([
      { id: 'plan-a', text: 'Plan A' },
      { id: 'plan-a-2', text: 'Plan A' },
    ])
    expect(html).toContain('<span class="check" aria-hidden="true"></span>')
    expect(html).toContain('<div class="table-wrap"><table>')
  })
})

describe('saving', () => {
  it('refuses a save over someone else’s newer one with 409, and loses neither', async () => {
    const fields = article()
    const first = await itemOf(await save('/desk/content/article/new', fields))
    const path = `/desk/content/article/${first.id}`
    // two people opened version 1; the first saves
    const theirs = await save(path, { ...fields, version: '1', 'text.body': 'Their newer text.' })
    expect((await itemOf(theirs)).done).toBe('save')
    // the second saves from version 1 too
    const mine = await save(path, { ...fields, version: '1', 'text.body': 'My own words, kept.' })
    expect(mine.status).toBe(409)
    const page = await mine.text()
    expect(page).toContain('My own words, kept.')
    expect(page).toContain(staff.email)
    const stored = await env.DB.prepare(
      `SELECT body FROM content_texts WHERE item_id = ? AND lang = 'en'`,
    )
      .bind(first.id)
      .first<{ body: string }>()
    expect(stored!.body).toBe('Their newer text.')
    expect((await row(first.id))!.version).toBe(2)
    // every save a revision and an audit line
    const revisions = await env.DB.prepare(
      'SELECT version, author FROM content_revisions WHERE item_id = ? ORDER BY id',
    )
      .bind(first.id)
      .all()
    expect(revisions.results).toEqual([
      { version: 1, author: staff.email },
      { version: 2, author: staff.email },
    ])
    const audit = await env.DB.prepare(
      `SELECT count(*) AS n FROM desk_audit WHERE target = ? AND actor_email = ?`,
    )
      .bind(`article/${(await row(first.id))!.slug}`, staff.email)
      .first<{ n: number }>()
    expect(audit!.n).toBe(2)
  })

  it('restores a revision from a language tab and comes back to that tab', async () => {
    const fields = article()
    const { id } = await itemOf(await save('/desk/content/article/new', fields))
    const path = `/desk/content/article/${id}`
    const arabic = (version: string, title: string) => ({
      version,
      lang: 'ar',
      action: 'save',
      'text.title': title,
      'text.excerpt': 'مقتطف قصير للمقال.',
      'text.description':
        'وصف تعريفي طويل بما يكفي ليتجاوز الحد الأدنى البالغ خمسين حرفًا في الصفحة.',
      'text.category_label': 'أمازون',
      'text.author': 'آدا',
      'text.body': '## الجزء الأول\n\nنص.',
    })
    await itemOf(await save(path, arabic('1', 'العنوان الأول')))
    await itemOf(await save(path, arabic('2', 'العنوان الثاني')))
    const { id: revision } = (await env.DB.prepare(
      'SELECT id FROM content_revisions WHERE item_id = ? AND version = 2',
    )
      .bind(id)
      .first<{ id: number }>())!
    const res = await post(
      `${path}/restore`,
      { revision: String(revision), version: '3', tab: 'ar' },
      staff.cookie,
    )
    expect(res.status).toBe(303)
    expect(res.headers.get('Location')).toBe(`${path}?tab=ar&done=restore`)
    const item = (await findItem(env.DB, 'article', id))!
    expect(item.texts.ar!.fields.title).toBe('العنوان الأول')
    expect(item.texts.en!.fields.title).toBe(fields['text.title'])
  })

  it('says what is wrong with each field, in the staff member’s language, and keeps the text', async () => {
    const res = await save(
      '/desk/content/article/new',
      article({ 'text.description': 'Too short.', slug: 'Not A Slug' }),
    )
    expect(res.status).toBe(400)
    const page = await res.text()
    expect(page).toContain('Write at least 50 characters.')
    expect(page).toContain('Use lower-case letters, digits and hyphens only (at most 80).')
    expect(page).toContain('Too short.')
  })

  it('refuses a picture that is not one, whatever its name says', async () => {
    const fake = new File([new TextEncoder().encode('<svg onload=alert(1)>')], 'cover.png', {
      type: 'image/png',
    })
    const res = await save('/desk/content/article/new', { ...article(), picture: fake })
    expect(res.status).toBe(400)
    expect(await res.text()).toContain('This file is not a JPEG, PNG or WebP picture.')
  })
})

describe('scheduling', () => {
  it('the cron publishes a scheduled article on time, and its page follows', async () => {
    const at = new Date(Date.now() + 3 * 60_000)
    // the desk's time is the agency's (Europe/London): the form's local time of `at`
    const local = at.toLocaleString('sv-SE', { timeZone: 'Europe/London' }).replace(' ', 'T')
    const fields = article({ action: 'schedule', publish_at: local.slice(0, 16) })
    const { id } = await itemOf(await save('/desk/content/article/new', fields))
    const scheduled = (await row(id))!
    expect(scheduled.status).toBe('scheduled')
    expect((await get(`/blog/${fields.slug}`)).status).toBe(404)
    // a minute before: nothing; at the time: live
    const due = new Date(scheduled.publish_at!)
    expect(await publishDue(env.DB, new Date(due.getTime() - 60_000).toISOString())).toEqual([])
    expect((await row(id))!.status).toBe('scheduled')
    // the Worker's own cron handler, once the time has come
    await env.DB.prepare('UPDATE content_items SET publish_at = ? WHERE id = ?')
      .bind(new Date(Date.now() - 1000).toISOString(), id)
      .run()
    await worker.scheduled(
      { cron: '*/5 * * * *', scheduledTime: Date.now(), noRetry() {} } as ScheduledController,
      env,
    )
    expect((await row(id))!.status).toBe('published')
    const page = await get(`/blog/${fields.slug}`)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain(fields['text.title'])
  })

  it('reopens a scheduled article with its time in the field and the agency’s clock, in summer too', async () => {
    // 09:00 in London on 1 July is 08:00 UTC (summer time): the desk says 9:00 everywhere
    const year = new Date().getUTCFullYear() + 1
    const fields = article({ action: 'schedule', publish_at: `${year}-07-01T09:00` })
    const { id } = await itemOf(await save('/desk/content/article/new', fields))
    expect((await row(id))!.publish_at).toBe(`${year}-07-01T08:00:00.000Z`)
    const html = await (
      await get(`/desk/content/article/${id}?tab=en&lang=en`, staff.cookie)
    ).text()
    // the field shows the time it was given, to change it or see it
    expect(html).toMatch(new RegExp(`name="publish_at"[^>]*value="${year}-07-01T09:00"`))
    // the badge and the list: the time as typed, not UTC's 8:00
    expect(html).toContain(` · Jul 1, ${year}, 9:00`)
    const list = await (await get('/desk/content/article?lang=en', staff.cookie)).text()
    expect(list).toContain(`Jul 1, ${year}, 9:00`)
    // Save with the field as shown keeps the time; with a time changed there, takes it
    const path = `/desk/content/article/${id}`
    const again = { ...fields, action: 'save', slug: fields.slug }
    expect((await itemOf(await save(path, { ...again, version: '1' }))).done).toBe('save')
    expect((await row(id))!.publish_at).toBe(`${year}-07-01T08:00:00.000Z`)
    const later = { ...again, version: '2', publish_at: `${year}-07-02T10:30` }
    expect((await itemOf(await save(path, later))).done).toBe('save')
    expect(await row(id)).toMatchObject({
      status: 'scheduled',
      publish_at: `${year}-07-02T09:30:00.000Z`,
    })
  })
})

describe('the edge cache', () => {
  it('purges the cached blog in every language when an article is published', async () => {
    const list = (lang: string) => get(`/blog?lang=${lang}`)
    for (const lang of LANGS) {
      await (await list(lang)).text()
      const again = await list(lang)
      expect(again.headers.get('x-render'), lang).toBe('hit')
      await again.text()
    }
    const fields = article()
    const { id } = await itemOf(await save('/desk/content/article/new', fields))
    await itemOf(
      await save(`/desk/content/article/${id}`, {
        ...article({ slug: fields.slug }),
        version: '1',
        lang: 'ar',
        'text.title': 'مقال الاختبار المنشور',
        'text.category_label': 'أمازون',
      }),
    )
    await itemOf(
      await save(`/desk/content/article/${id}`, { ...fields, version: '2', action: 'publish' }),
    )
    for (const lang of LANGS) {
      const res = await list(lang)
      expect(res.headers.get('x-render'), lang).toBe('miss')
      const html = await res.text()
      // in the languages it exists in, and only those
      if (lang === 'en') expect(html).toContain(fields['text.title'])
      else if (lang === 'ar') expect(html).toContain('مقال الاختبار المنشور')
      else expect(html, lang).not.toContain(`/blog/${fields.slug}`)
    }
    // unpublished: gone from every list at once
    await itemOf(
      await save(`/desk/content/article/${id}`, { ...fields, version: '3', action: 'unpublish' }),
    )
    for (const lang of ['en', 'ar']) {
      const res = await list(lang)
      expect(res.headers.get('x-render')).toBe('miss')
      expect(await res.text()).not.toContain(`/blog/${fields.slug}`)
    }
    expect((await get(`/blog/${fields.slug}`)).status).toBe(404)
  })

  it('shows an untranslated article in English, marked so, with hreflang for its languages only', async () => {
    const fields = article()
    const { id } = await itemOf(
      await save('/desk/content/article/new', { ...fields, action: 'publish' }),
    )
    expect(id).toBeGreaterThan(0)
    const html = await (await get(`/blog/${fields.slug}?lang=fr`)).text()
    expect(html).toContain('<html lang="fr"')
    expect(html).toMatch(/<h1[^>]*lang="en"[^>]*>Desk test article/)
    expect(html).toContain('Cet article n’est pas encore traduit en français. Le voici en anglais.')
    // the note names English in the visitor's language
    const notes = {
      de: 'Hier ist er auf Englisch.',
      pt: 'Aqui está em inglês.',
      es: 'Aquí lo tienes en inglés.',
      ar: 'إليك نسخته باللغة الإنجليزية.',
    }
    for (const [lang, note] of Object.entries(notes))
      expect(await (await get(`/blog/${fields.slug}?lang=${lang}`)).text(), lang).toContain(note)
    expect(html).toContain('<meta name="robots" content="noindex"/>')
    const hreflang = [...html.matchAll(/<link rel="alternate" hrefLang="([^"]+)"/g)].map(
      (m) => m[1],
    )
    expect(hreflang.sort()).toEqual(['en', 'x-default'])
    const sitemap = await (await get('/sitemap.xml')).text()
    expect(sitemap).toContain(`<loc>${SITE}/blog/${fields.slug}</loc>`)
    expect(sitemap).not.toContain(`<loc>${SITE}/blog/${fields.slug}?lang=fr</loc>`)
  })
})

describe('counts', () => {
  it('words an article’s reading time in the plural form its language takes', async () => {
    const fields = article()
    const { id } = await itemOf(
      await save('/desk/content/article/new', { ...fields, action: 'publish' }),
    )
    const ar = {
      version: '1',
      lang: 'ar',
      action: 'save',
      'text.title': 'مقالة قصيرة',
      'text.excerpt': 'مقتطف قصير من المقالة للقائمة.',
      'text.description': 'وصف للمقالة طويل بما يكفي ليتجاوز الحد الأدنى البالغ خمسين حرفًا.',
      'text.category_label': 'أمازون',
      'text.author': 'آدا',
      'text.body': 'بضع كلمات فقط.',
    }
    await itemOf(await save(`/desk/content/article/${id}`, ar))
    const page = await (await get(`/blog/${fields.slug}?lang=ar`)).text()
    expect(page).toContain('دقيقة واحدة للقراءة')
    expect(page).not.toContain('1 دقائق')
    expect(await (await get(`/blog/${fields.slug}`)).text()).toContain('1 min read')
  })
})

describe('the feeds', () => {
  it('hands an excerpt to feed readers as text: escaped as HTML, then as XML', async () => {
    const excerpt = 'mentions <img src=x onerror=alert(2)> as text, and use <title> tags & "quotes"'
    const fields = article({ 'text.excerpt': `${excerpt}\u0007` })
    await itemOf(await save('/desk/content/article/new', { ...fields, action: 'publish' }))
    const body = await (await get('/blog/rss.xml?lang=en')).text()
    expect(XMLValidator.validate(body)).toBe(true)
    // an XML parser decodes once, as a reader does: what it gets is HTML that shows the text
    const items = new XMLParser().parse(body).rss.channel.item as {
      title: string
      description: string
    }[]
    const html = items.find((i) => i.title === fields['text.title'])!.description
    expect(html).not.toMatch(/<img|<title/)
    expect(decode(html)).toBe(excerpt)
  })

  it('list an article only in the languages it has; under another, its page says which it is in', async () => {
    const fields = article({ 'text.title': 'Ventes & «marges» <en> اختبار' })
    await itemOf(await save('/desk/content/article/new', { ...fields, action: 'publish' }))
    const path = `/blog/${fields.slug}`
    const sitemap = new XMLParser({
      ignoreAttributes: false,
      isArray: (name) => name === 'url' || name === 'xhtml:link',
    }).parse(await (await get('/sitemap.xml')).text()).urlset.url as {
      loc: string
      'xhtml:link': { '@_hreflang': string; '@_href': string }[]
    }[]
    const listed = sitemap.filter((u) => u.loc.startsWith(SITE + path))
    expect(listed.map((u) => u.loc)).toEqual([SITE + path])
    expect(listed[0]!['xhtml:link'].map((l) => [l['@_hreflang'], l['@_href']])).toEqual([
      ['en', SITE + path],
      ['x-default', SITE + path],
    ])
    const titles = async (lang: string) => {
      const rss = new XMLParser().parse(await (await get(`/blog/rss.xml?lang=${lang}`)).text())
      return (rss.rss.channel.item as { title: string }[]).map((i) => i.title)
    }
    expect(await titles('en')).toContain(fields['text.title'])
    // a reader asking again with what it has gets "not modified", until an article is published
    const tag = (await get('/blog/rss.xml?lang=en')).headers.get('ETag')!
    expect(tag).toMatch(/^"[0-9a-f]+"$/)
    const again = await SELF.fetch(`${SITE}/blog/rss.xml?lang=en`, {
      headers: { 'If-None-Match': tag },
    })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
    const next = article()
    await itemOf(await save('/desk/content/article/new', { ...next, action: 'publish' }))
    const changed = await SELF.fetch(`${SITE}/blog/rss.xml?lang=en`, {
      headers: { 'If-None-Match': tag },
    })
    expect(changed.status).toBe(200)
    expect(await changed.text()).toContain(next['text.title'])
    expect(await titles('de')).not.toContain(fields['text.title'])
    // shown in English under the German address: not listed, and its card is the English text's
    const page = await (await get(`${path}?lang=de`)).text()
    expect(page).toContain('<meta name="robots" content="noindex"/>')
    expect(page).toContain('<meta property="og:locale" content="en_GB"/>')
    expect(page).toContain(`<meta property="og:image" content="${SITE}/og/blog-en.jpg"/>`)
    expect(page).not.toContain('og:locale:alternate')
    // its title decoded once, as a crawler decodes it, is the title as typed
    const meta = (p: string) =>
      decode(new RegExp(`<meta (?:property|name)="${p}" content="([^"]*)"`).exec(page)![1]!)
    expect(meta('og:title')).toBe(`${fields['text.title']} | Northstar Growth`)
    expect(meta('twitter:image:alt')).toBe(meta('og:title'))
    const graph = JSON.parse(
      /<script type="application\/ld\+json"[^>]*>(.*?)<\/script>/.exec(page)![1]!,
    ) as { '@graph': Record<string, unknown>[] }
    expect(graph['@graph'].find((n) => n['@type'] === 'BlogPosting')).toMatchObject({
      headline: fields['text.title'],
      url: SITE + path,
      inLanguage: 'en',
      image: [{ url: `${SITE}/og/blog-en.jpg` }],
    })
  })
})

/** A desk page's HTML text or attribute, as the browser reads it. */
const decode = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, e: string) =>
    e[0] === '#'
      ? String.fromCodePoint(Number(e[1] === 'x' || e[1] === 'X' ? `0${e.slice(1)}` : e.slice(1)))
      : ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[e],
  )

/** What the editor's form would post as it opened: every field with its shown value. */
async function editorForm(res: Response) {
  const form: Record<string, string> = {}
  let textarea = ''
  let option: string | undefined
  const scope = 'form[enctype="multipart/form-data"]'
  await new HTMLRewriter()
    .on(`${scope} input`, {
      element(el) {
        const name = el.getAttribute('name')
        const type = el.getAttribute('type')
        if (!name || type === 'file' || (type === 'checkbox' && !el.hasAttribute('checked'))) return
        form[name] = decode(el.getAttribute('value') ?? '')
      },
    })
    .on(`${scope} textarea`, {
      element(el) {
        textarea = el.getAttribute('name')!
        form[textarea] = ''
      },
      text(chunk) {
        form[textarea] += chunk.text
        if (chunk.lastInTextNode) form[textarea] = decode(form[textarea])
      },
    })
    .on(`${scope} select`, {
      element(el) {
        option = el.getAttribute('name') ?? undefined
      },
    })
    .on(`${scope} option[selected]`, {
      element(el) {
        if (option) form[option] = decode(el.getAttribute('value') ?? '')
      },
    })
    .transform(res)
    .text()
  // a textarea's first newline is not its value (HTML drops it)
  for (const [k, v] of Object.entries(form)) if (v.startsWith('\n')) form[k] = v.slice(1)
  return form
}

describe('the seeded content in the editor', () => {
  const stored = async () => {
    const { results } = await env.DB.prepare(
      'SELECT id, kind FROM content_items WHERE updated_by = ?',
    )
      .bind('migration')
      .all<{ id: number; kind: ContentKind }>()
    return Promise.all(results.map((r) => findItem(env.DB, r.kind, r.id)))
  }
  /** A kind's fields as stored, those the form edits (absent ones as the form posts them). */
  const edited = (specs: FieldSpec[], fields: Record<string, unknown>) =>
    Object.fromEntries(specs.map((s) => [s.name, s.name in fields ? fields[s.name] : '']))

  it('shows every field of every kind as stored, and reads it back the same', async () => {
    const items = await stored()
    expect(new Set(items.map((i) => i!.kind))).toEqual(new Set(CONTENT_KINDS))
    for (const item of items) {
      const specs = KIND_FIELDS[item!.kind]
      const shared = readFields(
        item!.kind,
        'shared',
        formValues(item!.kind, 'shared', item!.fields),
      )
      expect(shared, `${item!.slug}`).toEqual({
        ok: true,
        fields: edited(specs.shared, item!.fields),
      })
      for (const [lang, text] of Object.entries(item!.texts)) {
        const back = readFields(item!.kind, 'texts', formValues(item!.kind, 'texts', text.fields))
        expect(back, `${item!.slug} ${lang}`).toEqual({
          ok: true,
          fields: edited(specs.texts, text.fields),
        })
      }
    }
  })

  it('a case’s result values read left to right in the Arabic tab (“+164%”, not “164%+”), as the portfolio shows them', async () => {
    const item = (await stored()).find((i) => i!.kind === 'case')!
    const html = await (await get(`/desk/content/case/${item.id}?tab=ar`, staff.cookie)).text()
    const input = (name: string) => html.match(new RegExp(`<input[^>]*name="${name}"[^>]*>`))![0]
    expect(input('result_1_value')).toContain('dir="ltr"')
    expect(input('result_1_value')).toContain('lang="ar"')
    expect(input('result_1_label')).toContain('dir="rtl"')
  })

  it('a testimonial, with nothing shared, shows no empty box and no note about shared fields', async () => {
    const item = (await stored()).find((i) => i!.kind === 'testimonial')!
    for (const tab of ['en', 'ar']) {
      const path = `/desk/content/testimonial/${item!.id}?tab=${tab}&lang=en`
      const html = await (await get(path, staff.cookie)).text()
      expect(html).not.toMatch(/<div class="grid gap-5 md:grid-cols-2"><\/div>/)
      expect(decode(html)).not.toContain(en.desk.content.shared_on_english)
    }
    // a plan's Arabic tab still says where its price is edited
    const plan = (await stored()).find((i) => i!.kind === 'plan')!
    const html = await (await get(`/desk/content/plan/${plan!.id}?tab=ar`, staff.cookie)).text()
    expect(decode(html)).toContain(en.desk.content.shared_on_english)
  })

  it('a seeded item of each kind opens with its fields filled and saves unchanged, in English and Arabic', async () => {
    const items = await stored()
    for (const kind of CONTENT_KINDS) {
      const before = items.find((i) => i!.kind === kind && i!.slug !== 'tiktok-shop-guide')!
      for (const lang of ['en', 'ar'] as const) {
        const path = `/desk/content/${kind}/${before.id}`
        const current = (await findItem(env.DB, kind, before.id))!
        const form = await editorForm(await get(`${path}?tab=${lang}`, staff.cookie))
        // what the public page shows is in the form (the plan's features, the case's results)
        const values = Object.values(formValues(kind, 'texts', current.texts[lang]!.fields))
        for (const value of values) expect(Object.values(form), `${kind} ${lang}`).toContain(value)
        const res = await save(path, { ...form, action: 'save' })
        expect(res.status, `${kind} ${lang}`).toBe(303)
        const after = (await findItem(env.DB, kind, before.id))!
        expect(after.version).toBe(current.version + 1)
        expect(after.fields).toEqual(current.fields)
        expect(after.texts).toEqual(current.texts)
      }
    }
  })
})

describe('writers and review', () => {
  let writer: { email: string; cookie: string }
  let other: { email: string; cookie: string }
  let editor: { email: string; cookie: string }
  beforeAll(async () => {
    writer = await person({ staff: 'writer', secondFactor: true })
    other = await person({ staff: 'writer', secondFactor: true })
    editor = await person({ staff: 'editor', secondFactor: true })
  })
  const review = (id: number) =>
    env.DB.prepare(
      'SELECT status, version, author_id, review_at, review_note FROM content_items WHERE id = ?',
    )
      .bind(id)
      .first<{
        status: string
        version: number
        author_id: string | null
        review_at: string | null
        review_note: string | null
      }>()
  const audits = async (slug: string) =>
    (
      await env.DB.prepare(
        `SELECT action, actor_email FROM desk_audit WHERE target = ? AND action LIKE 'content.review%' ORDER BY id`,
      )
        .bind(`article/${slug}`)
        .all<{ action: string; actor_email: string }>()
    ).results
  const textOf = (html: string) => html.replace(/<[^>]+>/g, '').replace(/&#x27;/g, "'")

  it('a Writer’s draft goes to review, back with a note, to review again, and is published by an Editor', async () => {
    // the Writer's desk is the content desk: their own drafts, and nothing else of the desk
    const landing = await get('/desk', writer.cookie)
    expect(landing.status).toBe(302)
    expect(landing.headers.get('Location')).toBe('/desk/content')
    const fields = article({ 'text.title': `Writer draft ${Date.now()}` })
    const { id } = await itemOf(await save('/desk/content/article/new', fields, writer.cookie))
    const path = `/desk/content/article/${id}`
    const writerId = (await env.DB.prepare('SELECT id FROM auth_users WHERE email = ?')
      .bind(writer.email)
      .first<string>('id'))!
    expect(await review(id)).toMatchObject({ status: 'draft', author_id: writerId })
    const list = await (await get('/desk/content/article?lang=en', writer.cookie)).text()
    expect(list).toContain(fields['text.title'])
    // others' articles (the seeded ones, the agency's) are not in a Writer's list
    expect(list).not.toContain('/desk/content/article/1"')
    // the editor offers a Writer "Send for review", never publishing or scheduling
    const page = await (await get(`${path}?lang=en`, writer.cookie)).text()
    expect(page).toContain(en.desk_review.submit)
    expect(page).not.toContain(`value="publish"`)
    expect(page).not.toContain(`value="schedule"`)

    // sent for review: read-only for the Writer, in the queue for an Editor
    const sent = await itemOf(
      await save(path, { ...fields, version: '1', action: 'review' }, writer.cookie),
    )
    expect(sent.done).toBe('review')
    expect(await review(id)).toMatchObject({ status: 'draft', version: 2, review_note: null })
    expect((await review(id))!.review_at).not.toBeNull()
    const waiting = await (await get(`${path}?lang=en`, writer.cookie)).text()
    expect(waiting).toContain('<fieldset disabled=""')
    expect(waiting).not.toContain(en.desk_review.submit)
    const queue = await (await get('/desk/content/article?lang=en', editor.cookie)).text()
    expect(queue).toContain(en.desk_review.queue_title)
    const queued = queue.slice(queue.indexOf(en.desk_review.queue_title)).split('</section>')[0]
    expect(queued).toContain(`href="${path}"`)
    expect(queued).toContain(writer.email)

    // sent back: a note is required, and at most 1000 characters
    const back = (note: string, version = '2') =>
      post(`${path}/return`, { note, version }, editor.cookie)
    const empty = await back('   ')
    expect(empty.status).toBe(400)
    expect(await empty.text()).toContain(en.desk_review.errors.note_required)
    const long = await back('x'.repeat(1001))
    expect(long.status).toBe(400)
    expect(textOf(await long.text())).toContain(
      en.desk_review.errors.note_long.replace('{{max}}', '1000'),
    )
    expect((await review(id))!.review_at).not.toBeNull()
    const note = 'Please add a source for the 30% figure.'
    const returned = await back(note)
    expect(returned.status).toBe(303)
    expect(returned.headers.get('Location')).toBe(`${path}?tab=en&done=review_return`)
    expect(await review(id)).toMatchObject({ review_at: null, review_note: note, version: 3 })
    // the Writer sees the note on the draft, and may change it again
    const noted = await (await get(`${path}?lang=en`, writer.cookie)).text()
    expect(noted).toContain(en.desk_review.returned_title)
    expect(textOf(noted)).toContain(note)
    expect(noted).not.toContain('<fieldset disabled=""')
    const edited = { ...fields, 'text.body': '## First part\n\nSome **text**, with a source.' }
    expect((await itemOf(await save(path, { ...edited, version: '3' }, writer.cookie))).done).toBe(
      'save',
    )
    // (the note stays until the draft is sent again)
    expect(textOf(await (await get(path, writer.cookie)).text())).toContain(note)
    await itemOf(await save(path, { ...edited, version: '4', action: 'review' }, writer.cookie))
    expect(await review(id)).toMatchObject({ review_note: null, version: 5 })
    expect(textOf(await (await get(path, writer.cookie)).text())).not.toContain(note)

    // an Editor publishes it: the normal publish, out of the queue and on the site
    const published = await itemOf(
      await save(path, { ...edited, version: '5', action: 'publish' }, editor.cookie),
    )
    expect(published.done).toBe('publish')
    expect(await review(id)).toMatchObject({ status: 'published', review_at: null })
    expect((await get(`/blog/${fields.slug}`)).status).toBe(200)
    const after = await (await get('/desk/content/article?lang=en', editor.cookie)).text()
    expect(after).not.toContain(`href="${path}"><`)
    expect(await audits(fields.slug)).toEqual([
      { action: 'content.review_submit', actor_email: writer.email },
      { action: 'content.review_return', actor_email: editor.email },
      { action: 'content.review_submit', actor_email: writer.email },
    ])
  })

  it('a Writer cannot publish, schedule, or change a draft while it waits for review', async () => {
    const fields = article()
    const { id } = await itemOf(await save('/desk/content/article/new', fields, writer.cookie))
    const path = `/desk/content/article/${id}`
    // the publish fields posted directly: refused, nothing changed
    expect(
      (await save(path, { ...fields, version: '1', action: 'publish' }, writer.cookie)).status,
    ).toBe(403)
    const at = `${new Date().getUTCFullYear() + 1}-07-01T09:00`
    expect(
      (
        await save(
          path,
          { ...fields, version: '1', action: 'schedule', publish_at: at },
          writer.cookie,
        )
      ).status,
    ).toBe(403)
    expect(await review(id)).toMatchObject({ status: 'draft', version: 1 })
    expect((await get(`/blog/${fields.slug}`)).status).toBe(404)
    // in review: a save (or a restore) is refused with the text as sent, nothing stored
    await itemOf(await save(path, { ...fields, version: '1', action: 'review' }, writer.cookie))
    const locked = await save(
      path,
      { ...fields, version: '2', 'text.body': 'Changed while in review.' },
      writer.cookie,
    )
    expect(locked.status).toBe(409)
    const html = await locked.text()
    expect(textOf(html)).toContain(en.desk_review.errors.locked)
    expect(html).toContain('Changed while in review.')
    const revision = (await env.DB.prepare(
      'SELECT id FROM content_revisions WHERE item_id = ? AND version = 1',
    )
      .bind(id)
      .first<number>('id'))!
    const restore = await post(
      `${path}/restore`,
      { revision: String(revision), version: '2', tab: 'en' },
      writer.cookie,
    )
    // (back to the draft, which says nothing was changed)
    expect(restore.status).toBe(303)
    expect(restore.headers.get('Location')).toBe(`${path}?tab=en&done=locked`)
    expect(await review(id)).toMatchObject({ version: 2 })
    // sending back is an editor's
    expect(
      (await post(`${path}/return`, { note: 'Mine.', version: '2' }, writer.cookie)).status,
    ).toBe(403)
  })

  it('a Writer opens only their own drafts of articles and case studies: anything else is not there (404) or refused (403)', async () => {
    const fields = article()
    const { id } = await itemOf(await save('/desk/content/article/new', fields, writer.cookie))
    const path = `/desk/content/article/${id}`
    // another Writer's draft
    expect((await get(path, other.cookie)).status).toBe(404)
    expect((await save(path, { ...fields, version: '1' }, other.cookie)).status).toBe(403)
    expect(
      (await post(`${path}/restore`, { revision: '1', version: '1', tab: 'en' }, other.cookie))
        .status,
    ).toBe(403)
    expect(await (await get('/desk/content/article', other.cookie)).text()).not.toContain(path)
    // the agency's own article (seeded, no author), and other kinds: plans, questions…
    const seeded = (await env.DB.prepare(
      "SELECT id FROM content_items WHERE kind = 'article' AND author_id IS NULL LIMIT 1",
    ).first<number>('id'))!
    expect((await get(`/desk/content/article/${seeded}`, writer.cookie)).status).toBe(404)
    for (const kind of ['testimonial', 'plan', 'faq']) {
      expect((await get(`/desk/content/${kind}`, writer.cookie)).status, kind).toBe(404)
      expect((await get(`/desk/content/${kind}/new`, writer.cookie)).status, kind).toBe(404)
      expect(
        (await save(`/desk/content/${kind}/new`, { version: '0', lang: 'en' }, writer.cookie))
          .status,
        kind,
      ).toBe(403)
    }
    const plan = (await env.DB.prepare(
      "SELECT id FROM content_items WHERE kind = 'plan' LIMIT 1",
    ).first<number>('id'))!
    expect((await get(`/desk/content/plan/${plan}`, writer.cookie)).status).toBe(404)
    // a case study of their own is theirs
    expect((await get('/desk/content/case/new', writer.cookie)).status).toBe(200)
    // the bar: Content only
    const bar = await (await get('/desk/content/article', writer.cookie)).text()
    expect(bar).toContain('href="/desk/content"')
    expect(bar).not.toContain('href="/desk/bookings"')
    expect(bar).not.toContain('href="/desk/newsletters"')
  })
})
