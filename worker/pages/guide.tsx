import type { Context } from 'hono'
import { renderToReadableStream } from 'react-dom/server'
import { dirOf, type Lang } from '../../client/lib/languages'
import { isGuideSlug } from '../data/guides'
import type { AppEnv } from '../env'
import type { Translator } from '../i18n/translator'

type Section = { heading: string; paragraphs: string[]; items: string[] }
type Guide = {
  title: string
  subtitle: string
  intro: string[]
  sections: Section[]
  checklist_title: string
  checklist: string[]
  closing: string
}

// Inline so the downloaded file reads the same offline; print rules make it a tidy A4 handout.
const STYLE = `
*{box-sizing:border-box}body{margin:0;font:16px/1.65 'Inter Variable','Noto Sans Arabic',system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;color:#0f172a;background:#f1f5f9}
main{max-width:46rem;margin:2rem auto;background:#fff;padding:3rem 3.5rem;border-radius:16px;box-shadow:0 1px 3px #0f172a1a}
header{border-bottom:4px solid #fbbf24;padding-bottom:1.5rem;margin-bottom:2rem}
.brand{font-weight:800;color:#1d3fb0;letter-spacing:.02em}
h1{font-size:2.1rem;line-height:1.2;margin:.5rem 0}h2{font-size:1.35rem;margin:2.2rem 0 .6rem;color:#1c358a;break-after:avoid}
.subtitle{font-size:1.15rem;color:#475569;margin:0}p{margin:.7rem 0}ul{padding-inline-start:1.3rem}li{margin:.3rem 0}
.checklist{background:#eef4ff;border-radius:12px;padding:1.2rem 1.5rem;margin-top:2rem;break-inside:avoid}
.checklist ul{list-style:none;padding:0}.checklist li::before{content:'☐';margin-inline-end:.6rem;color:#2550d9}
footer{margin-top:2.5rem;padding-top:1.2rem;border-top:1px solid #e2e8f0;font-size:.9rem;color:#475569}
a{color:#1d3fb0}
@media (max-width:640px){main{margin:0;padding:1.5rem;border-radius:0}}
@media print{body{background:#fff}main{box-shadow:none;margin:0;padding:0;max-width:none}@page{size:A4;margin:18mm}}
`

function GuideDocument({
  guide,
  lang,
  t,
  site,
  contact,
  nonce,
}: {
  guide: Guide
  lang: Lang
  t: Translator
  site: string
  contact: string
  nonce?: string
}) {
  return (
    <html lang={lang} dir={dirOf(lang)}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${guide.title} | ${t('meta.site_name')}`}</title>
        <meta name="description" content={guide.subtitle} />
        <meta name="robots" content="noindex" />
        <style nonce={nonce}>{STYLE}</style>
      </head>
      <body>
        <main>
          <header>
            <div className="brand">{t('meta.site_name')}</div>
            <h1>{guide.title}</h1>
            <p className="subtitle">{guide.subtitle}</p>
          </header>
          {guide.intro.map((p, i) => (
            <p key={i}>{p}</p>
          ))}
          {guide.sections.map((s, i) => (
            <section key={i}>
              <h2>{s.heading}</h2>
              {s.paragraphs.map((p, j) => (
                <p key={j}>{p}</p>
              ))}
              {s.items.length > 0 && (
                <ul>
                  {s.items.map((item, j) => (
                    <li key={j}>{item}</li>
                  ))}
                </ul>
              )}
            </section>
          ))}
          <section className="checklist">
            <h2>{guide.checklist_title}</h2>
            <ul>
              {guide.checklist.map((item, i) => (
                <li key={i}>{item}</li>
              ))}
            </ul>
          </section>
          <p>{guide.closing}</p>
          <footer>
            {t('meta.site_name')} · <a href={site}>{site.replace(/^https?:\/\//, '')}</a> ·{' '}
            {contact}
          </footer>
        </main>
      </body>
    </html>
  )
}

/** A free guide as a standalone, printable HTML document; `?download=1` saves it as a file. */
export async function serveGuide(c: Context<AppEnv>) {
  const slug = c.req.param('slug') ?? ''
  if (!isGuideSlug(slug)) return c.notFound()
  const { t, lang, config } = c.var
  const guide = t.data<Guide>(`guides.${slug}`)
  const stream = await renderToReadableStream(
    <GuideDocument
      guide={guide}
      lang={lang}
      t={t}
      site={config.siteUrl}
      contact={config.email}
      nonce={c.get('secureHeadersNonce')}
    />,
    { nonce: c.get('secureHeadersNonce') },
  )
  await stream.allReady
  c.header('Content-Type', 'text/html; charset=UTF-8')
  if (c.req.query('download') !== undefined)
    c.header('Content-Disposition', `attachment; filename="${slug}-${lang}.html"`)
  return c.body(stream)
}
