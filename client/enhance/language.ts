import { track } from '../lib/events'
import { dirOf, isLang, LANG_STORAGE_KEY } from '../lib/languages'

/** Applies a language choice the way SPEC §4 describes, then loads the page in it. */
export function applyLanguage(lang: string) {
  if (!isLang(lang)) return false
  try {
    localStorage.setItem(LANG_STORAGE_KEY, lang)
  } catch {
    // Storage can be disabled; the cookie the server sets still remembers the choice.
  }
  const root = document.documentElement
  root.lang = lang
  root.dir = dirOf(lang)
  root.style.setProperty('--language-switch', String(Date.now()))
  return true
}

export function enhanceLanguageMenu() {
  document.addEventListener('click', (event) => {
    const link = (event.target as Element).closest<HTMLAnchorElement>('a[data-lang]')
    if (link && applyLanguage(link.dataset.lang ?? ''))
      track('language_change', { to: link.dataset.lang! })
  })
  // A preference saved in this browser wins over Accept-Language when the server had no cookie.
  const source = document.documentElement.dataset.langSource
  if (source === 'query' || source === 'cookie') return
  let saved: string | null = null
  try {
    saved = localStorage.getItem(LANG_STORAGE_KEY)
  } catch {
    return
  }
  if (isLang(saved) && saved !== document.documentElement.lang) {
    const url = new URL(location.href)
    url.searchParams.set('lang', saved)
    location.replace(url)
  }
}
