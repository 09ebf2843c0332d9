import { SERVICE_ALIASES, SERVICES } from '../data/services'
import type { MessageKey } from '../i18n/translator'

/**
 * The texts an experiment may test (docs/experiments.md): each a string of the locale files,
 * shown on the pages listed. Variant A is that string as the page has it (locales/, or a past
 * winner's site_texts); B is written per language in the desk. The pages listed are the ones
 * keyed by the visitor's variants and counted as exposures, so a text used elsewhere too is only
 * tested where listed (its other pages keep A).
 */
export interface Target {
  id: string
  key: MessageKey
  paths: readonly string[]
  /** The desk's name for it (desk_experiments.targets.*), with the service's name where one. */
  label: { key: MessageKey; service?: MessageKey }
}

export const TARGETS: readonly Target[] = [
  {
    id: 'home.hero_title',
    key: 'hero.title',
    paths: ['/'],
    label: { key: 'desk_experiments.targets.hero_title' },
  },
  {
    id: 'home.hero_subtitle',
    key: 'hero.subtitle',
    paths: ['/'],
    label: { key: 'desk_experiments.targets.hero_subtitle' },
  },
  {
    id: 'home.hero_cta',
    key: 'hero.cta_primary',
    paths: ['/'],
    label: { key: 'desk_experiments.targets.hero_cta' },
  },
  {
    id: 'closing.title',
    key: 'home.cta_title',
    paths: ['/'],
    label: { key: 'desk_experiments.targets.closing_title' },
  },
  {
    id: 'closing.cta',
    key: 'home.cta_grow',
    paths: ['/'],
    label: { key: 'desk_experiments.targets.closing_cta' },
  },
  ...SERVICES.map((s) => ({
    id: `service.${s.slug}.headline`,
    key: `services.items.${s.key}.tagline` as MessageKey,
    // with the old addresses that show the same page (data/services.ts SERVICE_ALIASES)
    paths: [
      `/services/${s.slug}`,
      ...Object.keys(SERVICE_ALIASES)
        .filter((alias) => SERVICE_ALIASES[alias] === s.slug)
        .map((alias) => `/services/${alias}`),
    ],
    label: {
      key: 'desk_experiments.targets.service_headline' as MessageKey,
      service: `services.items.${s.key}.name` as MessageKey,
    },
  })),
]

export const targetById = (id: string) => TARGETS.find((t) => t.id === id)

/** Every page some target is on: the only pages the experiments' middleware looks at. */
export const TARGET_PATHS: ReadonlySet<string> = new Set(TARGETS.flatMap((t) => t.paths))

/**
 * The conversions an experiment can be judged by: those the server itself sees happen (a form
 * stored, a booking made), never a click reported by the browser.
 */
export const GOALS = ['booking', 'contact', 'guide', 'newsletter', 'any_lead'] as const
export type Goal = (typeof GOALS)[number]
/** A conversion as the server records it; `any_lead` is any of them. */
export type Conversion = Exclude<Goal, 'any_lead'>

export const isGoal = (value: unknown): value is Goal =>
  typeof value === 'string' && (GOALS as readonly string[]).includes(value)
