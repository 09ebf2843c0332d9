import { formatInTimeZone } from 'date-fns-tz'
import type { Lang } from '../../client/lib/languages'
/** Plan prices are in US dollars a month (the desk's plans). */
export const CURRENCY = 'USD'

// Intl formatters cost far more to build than to use: one of each per language per isolate.
type Formatter = Intl.NumberFormat | Intl.DateTimeFormat | Intl.DisplayNames | Intl.ListFormat
const cache = new Map<string, Formatter>()
function memo<T extends Formatter>(key: string, make: () => T): T {
  let f = cache.get(key)
  if (!f) cache.set(key, (f = make()))
  return f as T
}

export const formatNumber = (lang: Lang, n: number) =>
  memo(`n:${lang}`, () => new Intl.NumberFormat(lang)).format(n)

/** 4.9 → "4.9", "4,9"… always with one decimal. */
export const formatDecimal = (lang: Lang, n: number) =>
  memo(`d:${lang}`, () => new Intl.NumberFormat(lang, { minimumFractionDigits: 1 })).format(n)

/** 0.125 → "12.5%", "12,5 %"… at most one decimal. */
export const formatPercent = (lang: Lang, n: number) =>
  memo(
    `pc:${lang}`,
    () => new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 1 }),
  ).format(n)

/** A web vital's value: 180 → "180ms", 2140 → "2.14s"; CLS, which has no unit, "0.05". */
export const formatVital = (lang: Lang, metric: string, value: number) => {
  if (metric === 'CLS')
    return memo(
      `cls:${lang}`,
      () => new Intl.NumberFormat(lang, { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
    ).format(value)
  const [unit, digits, n] =
    value < 1000 ? (['millisecond', 0, value] as const) : (['second', 2, value / 1000] as const)
  return memo(
    `${unit}:${lang}`,
    () =>
      new Intl.NumberFormat(lang, {
        style: 'unit',
        unit,
        unitDisplay: 'narrow',
        maximumFractionDigits: digits,
      }),
  ).format(n)
}

/** ["a", "b", "c"] → "a, b and c", "a، وb وc"… as the language joins a list. */
export const formatList = (lang: Lang, items: string[]) =>
  memo(`l:${lang}`, () => new Intl.ListFormat(lang, { type: 'conjunction' })).format(items)

export const formatPrice = (lang: Lang, n: number) =>
  memo(
    `p:${lang}`,
    () =>
      new Intl.NumberFormat(lang, {
        style: 'currency',
        currency: CURRENCY,
        maximumFractionDigits: 0,
      }),
  ).format(n)

/** An ISO day ("2026-11-01") as a long date in the page's language. */
export const formatDay = (lang: Lang, iso: string) =>
  memo(
    `day:${lang}`,
    () => new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeZone: 'UTC' }),
  ).format(new Date(iso))

/** A phone number that never breaks across lines: its spaces become no-break spaces. */
export const unbroken = (s: string) => s.replace(/ /g, '\u00a0')

/**
 * An instant as a date and time in the page's language and the agency's zone (config.timeZone):
 * the desk's lists, in the zone its schedule fields are typed in.
 */
export const formatDateTime = (lang: Lang, iso: string, timeZone: string) =>
  memo(
    `dt:${lang}:${timeZone}`,
    () => new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short', timeZone }),
  ).format(new Date(iso))

/** An ISO day as "25 Nov": the visits chart's axis. */
export const formatShortDay = (lang: Lang, iso: string) =>
  memo(
    `sd:${lang}`,
    () => new Intl.DateTimeFormat(lang, { day: 'numeric', month: 'short', timeZone: 'UTC' }),
  ).format(new Date(iso))

/**
 * A language named in a sentence of another ("Le voici en anglais", "auf Englisch"): the page's
 * language names it, where a language picker names each in itself (LANGUAGE_NAMES).
 */
export const languageName = (inLang: Lang, lang: string) =>
  memo(`ln:${inLang}`, () => new Intl.DisplayNames([inLang], { type: 'language' })).of(lang) ?? lang

/** An instant as a datetime-local field's value ("2026-12-01T09:00") in `timeZone`. */
export const zonedFieldValue = (iso: string, timeZone: string) =>
  formatInTimeZone(new Date(iso), timeZone, "yyyy-MM-dd'T'HH:mm")

/**
 * Whether a scheduled item's datetime-local field was given a new time: filled, and not the value
 * it was shown with (`iso`, the time saved, in `timeZone`).
 */
export const retimedField = (
  value: string | null | undefined,
  iso: string | null | undefined,
  timeZone: string,
) => !!value && (!iso || value !== zonedFieldValue(iso, timeZone))
