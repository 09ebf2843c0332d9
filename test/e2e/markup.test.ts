import { HtmlValidate, type ConfigData } from 'html-validate'
import { describe, expect, inject, it } from 'vitest'
import { LANGS } from '../../client/lib/languages'
import { inLang, PAGE_PATHS } from '../routes'

/**
 * html-validate's recommended rules. Four stylistic rules are set to the way React writes
 * HTML (self-closed void elements, `charSet`/`imageSrcSet`, `required=""`, `crossorigin=""`):
 * the markup is the same, only spelled as React spells it. `valid-id` is relaxed for React's
 * own streaming marker (`<template id="_R_">`); HTML allows any id without spaces.
 */
export const HTML_VALIDATE: ConfigData = {
  extends: ['html-validate:recommended'],
  rules: {
    'void-style': ['error', { style: 'selfclose' }],
    'attr-case': ['error', { style: ['lowercase', 'camelcase'] }],
    'attribute-boolean-style': ['error', { style: 'empty' }],
    'attribute-empty-style': ['error', { style: 'empty' }],
    'valid-id': ['error', { relaxed: true }],
  },
}

const validator = new HtmlValidate(HTML_VALIDATE)
const baseURL = inject('baseURL')

describe('markup', () => {
  it.each(LANGS)('every page in %s passes html-validate (recommended rules)', async (lang) => {
    const problems: string[] = []
    for (const path of PAGE_PATHS) {
      const html = await (await fetch(baseURL + inLang(path, lang))).text()
      const report = await validator.validateString(html)
      for (const m of report.results.flatMap((r) => r.messages))
        problems.push(`${path} ${m.ruleId}: ${m.message} …${html.slice(m.offset, m.offset + 80)}`)
    }
    expect(problems).toEqual([])
  })
})
