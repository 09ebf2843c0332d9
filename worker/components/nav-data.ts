/** Navigation items (SPEC §2): label keys and their paths. */
export const MAIN_NAV = [
  { key: 'nav.home', href: '/' },
  { key: 'nav.about', href: '/about' },
  { key: 'nav.services', href: '/services' },
  { key: 'nav.portfolio', href: '/portfolio' },
  { key: 'nav.pricing', href: '/pricing' },
  { key: 'nav.blog', href: '/blog' },
  { key: 'nav.faq', href: '/faq' },
  { key: 'nav.contact', href: '/contact' },
] as const

export const SERVICES_MENU = [
  { key: 'nav.sub.amazon', href: '/services/amazon' },
  { key: 'nav.sub.shopify', href: '/services/shopify' },
  { key: 'nav.sub.social_media', href: '/services/social-media-marketing' },
  { key: 'nav.sub.email', href: '/services/email-marketing' },
  { key: 'nav.sub.gmb', href: '/services/gmb-optimization' },
  { key: 'nav.sub.web_development', href: '/services/web-development' },
] as const

export const FOOTER_MAIN = [
  { key: 'nav.home', href: '/' },
  { key: 'nav.about', href: '/about' },
  { key: 'nav.services', href: '/services' },
  { key: 'nav.portfolio', href: '/portfolio' },
  { key: 'nav.contact', href: '/contact' },
] as const

export const FOOTER_RESOURCES = [
  { key: 'nav.faq', href: '/faq' },
  { key: 'nav.blog', href: '/blog' },
  { key: 'footer.privacy', href: '/privacy-policy' },
  { key: 'footer.terms', href: '/terms-of-service' },
  { key: 'footer.refund', href: '/refund-policy' },
] as const

export const TRUSTED_PLATFORMS = [
  'Amazon',
  'Shopify',
  'Etsy',
  'TikTok Shop',
  'Fiverr',
  'Google',
  'Meta',
  'WooCommerce',
]
