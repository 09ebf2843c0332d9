import type { ReactNode } from 'react'
import { renderToReadableStream } from 'react-dom/server'
import { dirOf, type Lang } from '../../client/lib/languages'
import type { Translator } from '../i18n/translator'
import type { Letter } from './letter'

/** What every mail shows under its text: who sent it, where they are, why the reader got it. */
export interface Signature {
  siteName: string
  siteUrl: string
  /** The site's home page in the reader's language: the links to the site. */
  home: string
  address: string
  why: string
  /** Marketing mail: the unsubscribe link and its label. */
  unsubscribe?: { label: string; url: string }
}

/** The plain-text part: the same letter, for clients and readers that prefer text. */
export function letterText(letter: Letter, sig: Signature, t: Translator) {
  // "Label: value", as the language writes it ("Date et heure : …" in French)
  const line = (label: string, value: string) => t('mail.label_value', { label, value })
  const parts = [
    letter.greeting,
    ...letter.paragraphs,
    letter.code,
    letter.action && line(letter.action.label, letter.action.url),
    ...(letter.links ?? []).map((l) => line(l.label, l.url)),
    letter.details?.map(([k, v]) => line(k, v)).join('\n'),
    letter.quote
      ?.split(/\r?\n/)
      .map((l) => `> ${l}`)
      .join('\n'),
    letter.closing,
    `-- \n${sig.siteName}\n${sig.address}\n${sig.home}\n${sig.why}`,
    sig.unsubscribe && line(sig.unsubscribe.label, sig.unsubscribe.url),
  ]
  return parts.filter(Boolean).join('\n\n') + '\n'
}

// Inline styles only, tables for layout, web-safe fonts: what Gmail, Outlook and Apple Mail all
// render the same. Colours match the site (brand blue, ink).
const font = "-apple-system,'Segoe UI',Roboto,Helvetica,Arial,'Noto Sans Arabic',sans-serif"
const text = {
  margin: '0 0 16px',
  fontSize: '16px',
  lineHeight: '24px',
  color: '#1e293b',
  whiteSpace: 'pre-line' as const,
}

function Mail({ letter, sig, lang }: { letter: Letter; sig: Signature; lang: Lang }) {
  const dir = dirOf(lang)
  const align = dir === 'rtl' ? 'right' : 'left'
  return (
    <html lang={lang} dir={dir}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light" />
        <title>{letter.subject}</title>
      </head>
      <body style={{ margin: 0, padding: 0, backgroundColor: '#f1f5f9', fontFamily: font }}>
        <div style={{ display: 'none', maxHeight: 0, overflow: 'hidden' }}>{letter.preview}</div>
        <table role="presentation" width="100%" cellPadding={0} cellSpacing={0} border={0}>
          <tbody>
            <tr>
              <td align="center" style={{ padding: '24px 12px' }}>
                <table
                  role="presentation"
                  width="100%"
                  cellPadding={0}
                  cellSpacing={0}
                  border={0}
                  dir={dir}
                  style={{
                    maxWidth: '600px',
                    backgroundColor: '#ffffff',
                    borderRadius: '12px',
                    // a long pasted address or word wraps: never wider than a 320 px phone
                    overflowWrap: 'anywhere',
                    wordBreak: 'break-word',
                  }}
                >
                  <tbody>
                    <tr>
                      <td
                        style={{
                          padding: '20px 32px',
                          borderBottom: '4px solid #fbbf24',
                          textAlign: align,
                        }}
                      >
                        <a
                          href={sig.home}
                          style={{
                            color: '#1d3fb0',
                            fontSize: '20px',
                            fontWeight: 800,
                            textDecoration: 'none',
                          }}
                        >
                          {sig.siteName}
                        </a>
                      </td>
                    </tr>
                    <tr>
                      <td style={{ padding: '28px 32px 8px', textAlign: align }}>
                        <Body letter={letter} rtl={dir === 'rtl'} />
                      </td>
                    </tr>
                    <tr>
                      <td
                        style={{
                          padding: '20px 32px 28px',
                          borderTop: '1px solid #e2e8f0',
                          textAlign: align,
                          fontSize: '13px',
                          lineHeight: '20px',
                          color: '#475569',
                        }}
                      >
                        <p style={{ margin: '0 0 4px', fontWeight: 700 }}>{sig.siteName}</p>
                        <p style={{ margin: '0 0 4px' }}>{sig.address}</p>
                        <p style={{ margin: '0 0 8px' }}>
                          <a href={sig.home} style={{ color: '#1d3fb0' }}>
                            {sig.siteUrl.replace(/^https?:\/\//, '')}
                          </a>
                        </p>
                        <p style={{ margin: 0 }}>{sig.why}</p>
                        {sig.unsubscribe && (
                          <p style={{ margin: '8px 0 0' }}>
                            <a href={sig.unsubscribe.url} style={{ color: '#475569' }}>
                              {sig.unsubscribe.label}
                            </a>
                          </p>
                        )}
                      </td>
                    </tr>
                  </tbody>
                </table>
              </td>
            </tr>
          </tbody>
        </table>
      </body>
    </html>
  )
}

function Body({ letter, rtl }: { letter: Letter; rtl: boolean }): ReactNode {
  return (
    <>
      {letter.greeting && <p style={text}>{letter.greeting}</p>}
      {letter.sanitizedHtml !== undefined ? (
        <div dangerouslySetInnerHTML={{ __html: letter.sanitizedHtml }} />
      ) : (
        letter.paragraphs.map((p, i) => (
          <p key={i} style={text}>
            {p}
          </p>
        ))
      )}
      {letter.code && (
        <p
          style={{
            ...text,
            fontSize: '28px',
            lineHeight: '36px',
            fontWeight: 700,
            letterSpacing: '6px',
            direction: 'ltr',
          }}
        >
          {letter.code}
        </p>
      )}
      {letter.action && (
        <p style={{ margin: '8px 0 24px' }}>
          <a
            href={letter.action.url}
            style={{
              display: 'inline-block',
              padding: '12px 22px',
              backgroundColor: '#1d3fb0',
              color: '#ffffff',
              fontWeight: 700,
              fontSize: '16px',
              borderRadius: '8px',
              textDecoration: 'none',
            }}
          >
            {letter.action.label}
          </a>
        </p>
      )}
      {letter.links?.map((l) => (
        <p key={l.url} style={text}>
          <a href={l.url} style={{ color: '#1d3fb0', fontWeight: 600 }}>
            {l.label}
          </a>
        </p>
      ))}
      {letter.details && (
        <table
          role="presentation"
          cellPadding={0}
          cellSpacing={0}
          border={0}
          style={{ margin: '0 0 16px' }}
        >
          <tbody>
            {letter.details.map(([k, v]) => (
              <tr key={k}>
                <td
                  style={{
                    // the gap on the label's far side, whichever way the text runs
                    padding: rtl ? '4px 0 4px 12px' : '4px 12px 4px 0',
                    color: '#475569',
                    fontSize: '14px',
                    verticalAlign: 'top',
                  }}
                >
                  {k}
                </td>
                <td
                  style={{ padding: '4px 0', color: '#0f172a', fontSize: '14px', fontWeight: 600 }}
                >
                  {v}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {letter.quote && (
        <blockquote
          style={{
            margin: '0 0 16px',
            padding: '12px 16px',
            backgroundColor: '#f8fafc',
            // on the side the text starts, by name: Gmail and Outlook drop border-inline-start
            [rtl ? 'borderRight' : 'borderLeft']: '4px solid #cbd5e1',
            whiteSpace: 'pre-wrap',
            fontSize: '15px',
            lineHeight: '22px',
            color: '#1e293b',
          }}
        >
          {letter.quote}
        </blockquote>
      )}
      {letter.closing && <p style={text}>{letter.closing}</p>}
    </>
  )
}

/** The HTML part: React escapes every value, as on the site's pages. */
export async function letterHtml(letter: Letter, sig: Signature, lang: Lang) {
  const stream = await renderToReadableStream(<Mail letter={letter} sig={sig} lang={lang} />)
  await stream.allReady
  return await new Response(stream).text()
}
