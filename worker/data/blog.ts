/** Blog articles (SPEC §2), newest first. Text lives in locales under `blog.posts.<key>`. */
export interface PostMeta {
  slug: string
  key: string
  published: string
  updated: string
  readingMinutes: number
}

export const POSTS: PostMeta[] = [
  {
    slug: 'tiktok-shop-guide',
    key: 'tiktok_shop_guide',
    published: '2026-10-28',
    updated: '2026-11-10',
    readingMinutes: 7,
  },
  {
    slug: 'social-media-trends',
    key: 'social_media_trends',
    published: '2026-10-14',
    updated: '2026-10-14',
    readingMinutes: 6,
  },
  {
    slug: 'sales-funnels-guide',
    key: 'sales_funnels_guide',
    published: '2026-09-30',
    updated: '2026-10-05',
    readingMinutes: 8,
  },
  {
    slug: 'amazon-listings-guide',
    key: 'amazon_listings_guide',
    published: '2026-09-16',
    updated: '2026-09-16',
    readingMinutes: 8,
  },
  {
    slug: 'email-marketing-automation',
    key: 'email_marketing_automation',
    published: '2026-09-02',
    updated: '2026-09-20',
    readingMinutes: 7,
  },
  {
    slug: 'shopify-seo-guide',
    key: 'shopify_seo_guide',
    published: '2026-08-19',
    updated: '2026-08-19',
    readingMinutes: 9,
  },
  {
    slug: 'amazon-sales-strategies',
    key: 'amazon_sales_strategies',
    published: '2026-08-05',
    updated: '2026-08-12',
    readingMinutes: 7,
  },
  {
    slug: 'gmb-optimization-guide',
    key: 'gmb_optimization_guide',
    published: '2026-07-22',
    updated: '2026-07-22',
    readingMinutes: 6,
  },
  {
    slug: 'affiliate-marketing-guide',
    key: 'affiliate_marketing_guide',
    published: '2026-07-08',
    updated: '2026-07-08',
    readingMinutes: 7,
  },
]
