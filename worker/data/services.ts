import type en from '../../locales/en.json'
import type { MessageKey } from '../i18n/translator'

/** The services' icons (one per service; components/page-icon.tsx draws them). */
export type ServiceIcon =
  | 'cart'
  | 'bag'
  | 'store'
  | 'megaphone'
  | 'calendar'
  | 'mail'
  | 'link'
  | 'code'
  | 'rocket'
  | 'pen'
  | 'palette'
  | 'pin'

/** A service's entry under `services.items` in the locale files. */
export type ServiceKey = keyof typeof en.services.items

/** The service pages (SPEC §2). `key` names the service's entry under `services.items` in locales. */
export interface Service {
  slug: string
  key: ServiceKey
  icon: ServiceIcon
  related: string[]
  /** Place in the header's Services menu (SPEC §2 lists six), with its label key. */
  menu?: { order: number; key: MessageKey }
}

export const SERVICES: Service[] = [
  {
    slug: 'amazon',
    menu: { order: 1, key: 'nav.sub.amazon' },
    key: 'amazon',
    icon: 'cart',
    related: ['ecommerce-marketing', 'graphic-design', 'content-writing'],
  },
  {
    slug: 'shopify',
    menu: { order: 2, key: 'nav.sub.shopify' },
    key: 'shopify',
    icon: 'bag',
    related: ['web-development', 'email-marketing', 'ecommerce-marketing'],
  },
  {
    slug: 'etsy',
    key: 'etsy',
    icon: 'store',
    related: ['graphic-design', 'social-media-marketing', 'content-writing'],
  },
  {
    slug: 'ecommerce-marketing',
    key: 'ecommerce_marketing',
    icon: 'cart',
    related: ['amazon', 'shopify', 'email-marketing'],
  },
  {
    slug: 'social-media-marketing',
    menu: { order: 3, key: 'nav.sub.social_media' },
    key: 'social_media_marketing',
    icon: 'megaphone',
    related: ['social-media-management', 'graphic-design', 'content-writing'],
  },
  {
    slug: 'social-media-management',
    key: 'social_media_management',
    icon: 'calendar',
    related: ['social-media-marketing', 'graphic-design', 'content-writing'],
  },
  {
    slug: 'email-marketing',
    menu: { order: 4, key: 'nav.sub.email' },
    key: 'email_marketing',
    icon: 'mail',
    related: ['shopify', 'content-writing', 'ecommerce-marketing'],
  },
  {
    slug: 'affiliate-marketing',
    key: 'affiliate_marketing',
    icon: 'link',
    related: ['ecommerce-marketing', 'content-writing', 'saas-strategy'],
  },
  {
    slug: 'web-development',
    menu: { order: 6, key: 'nav.sub.web_development' },
    key: 'web_development',
    icon: 'code',
    related: ['shopify', 'gmb-optimization', 'content-writing'],
  },
  {
    slug: 'saas-strategy',
    key: 'saas_strategy',
    icon: 'rocket',
    related: ['email-marketing', 'content-writing', 'web-development'],
  },
  {
    slug: 'content-writing',
    key: 'content_writing',
    icon: 'pen',
    related: ['web-development', 'email-marketing', 'social-media-management'],
  },
  {
    slug: 'graphic-design',
    key: 'graphic_design',
    icon: 'palette',
    related: ['social-media-marketing', 'amazon', 'etsy'],
  },
  {
    slug: 'gmb-optimization',
    menu: { order: 5, key: 'nav.sub.gmb' },
    key: 'gmb_optimization',
    icon: 'pin',
    related: ['web-development', 'content-writing', 'social-media-management'],
  },
]

/** Old and alternative paths that show another service's page (one canonical URL each). */
export const SERVICE_ALIASES: Record<string, string> = { ecommerce: 'ecommerce-marketing' }

export const HOME_SERVICES = [
  'social-media-marketing',
  'ecommerce-marketing',
  'web-development',
  'email-marketing',
  'saas-strategy',
]

/** The header's Services menu, in the order SPEC §2 gives. */
export const SERVICES_MENU = SERVICES.filter((s) => s.menu)
  .sort((a, b) => a.menu!.order - b.menu!.order)
  .map((s) => ({ key: s.menu!.key, href: `/services/${s.slug}` }))

export function findService(slug: string): Service | undefined {
  return SERVICES.find((s) => s.slug === (SERVICE_ALIASES[slug] ?? slug))
}
