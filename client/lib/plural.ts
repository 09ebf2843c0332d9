/**
 * A count's words (CLDR plural forms through Intl.PluralRules): English has two forms (one,
 * other), French, Spanish and Portuguese three (one, many, other), Arabic six (zero, one, two,
 * few, many, other). A locale string with a count is an object of its language's forms; the
 * server's translator (t.plural, worker/i18n/translator.ts) and an island that counts as one
 * types (counted-field) both pick the form here.
 */
export type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string }

const rules = new Map<string, Intl.PluralRules>()

/** The form `n` takes in `lang`: one of `forms` ('other' where the form is missing). */
export function pluralForm(lang: string, n: number, forms: PluralForms): Intl.LDMLPluralRule {
  let r = rules.get(lang)
  if (!r) rules.set(lang, (r = new Intl.PluralRules(lang)))
  const form = r.select(n)
  return forms[form] === undefined ? 'other' : form
}
