/** Plan prices in USD per month; names and features are in locales under `pricing.tiers`. */
export const PRICING_TIERS = [
  { key: 'starter', price: 499, popular: false },
  { key: 'growth', price: 1499, popular: true },
  { key: 'scale', price: 3499, popular: false },
  { key: 'enterprise', price: null, popular: false },
] as const

export const CURRENCY = 'USD'
