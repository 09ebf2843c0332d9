/** Platforms the agency sells on and works with (the footer's trust row). */
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
