import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { LANGS } from '../../client/lib/languages'
import { planNames } from './content'

const page = (path: string, lang: string) =>
  SELF.fetch(`https://example.com${path}?lang=${lang}`).then((r) => r.text())
/** What a reader sees: the text between tags, without attributes, scripts or JSON props. */
const visibleText = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')

describe('values in the language of the page', () => {
  it('writes the budget amounts as money in each language', async () => {
    const budgets = async (lang: string) =>
      [
        ...(await page('/contact', lang)).matchAll(
          /<option value="(?:under_1k|1k_5k)"[^>]*>([^<]+)/g,
        ),
      ]
        // Intl puts no-break spaces where a number and its currency meet (read here as spaces)
        .map((m) => m[1].replace(/[\u00a0\u202f]/g, ' '))
    expect(await budgets('en')).toEqual(['Under $1,000', '$1,000 – $5,000'])
    expect(await budgets('es')).toEqual(['Menos de 1000 US$', '1000 US$ – 5000 US$'])
    expect(await budgets('fr')).toEqual(['Moins de 1 000 $US', '1 000 $US – 5 000 $US'])
    expect(await budgets('de')).toEqual(['Unter 1.000 $', '1.000 $ – 5.000 $'])
    for (const lang of LANGS.filter((l) => l !== 'en'))
      expect((await budgets(lang)).join(' '), lang).not.toContain('$1,000')
  })

  it('names the booking time zone in words, not as "Europe/London"', async () => {
    const de = visibleText(await page('/book', 'de'))
    expect(de).toContain('Alle Uhrzeiten in der Zeitzone „Vereinigtes Königreich (Ortszeit)“.')
    for (const lang of LANGS)
      expect(visibleText(await page('/book', lang)), lang).not.toContain('Europe/London')
  })

  it('gives the pricing plans names of their own in every language but English', async () => {
    const names = (html: string) =>
      [...html.matchAll(/<h2[^>]*>([^<]+)<\/h2>/g)].map((m) => m[1].trim())
    const english = await planNames('en')
    for (const lang of ['es', 'fr', 'de', 'pt', 'ar']) {
      const shown = names(await page('/pricing', lang))
      for (const name of english) expect(shown, lang).not.toContain(name)
    }
    expect(names(await page('/pricing', 'fr'))).toEqual(
      expect.arrayContaining(['Essentiel', 'Croissance', 'Expansion', 'Entreprise']),
    )
    expect(names(await page('/pricing', 'de'))).toEqual(
      expect.arrayContaining(['Einstieg', 'Wachstum', 'Skalierung', 'Unternehmen']),
    )
  })
})
