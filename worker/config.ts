import type { Bindings } from './env'

/** Settings the pages read, with the local defaults of wrangler.toml filled in. */
export interface SiteConfig {
  siteUrl: string
  email: string
  phone: string
  whatsapp: string
  bookingUrl: string
  social: { instagram: string; facebook: string; twitter: string; linkedin: string; tiktok: string }
  fiverrUrl: string
}

export function readConfig(env: Partial<Bindings>, requestUrl: string): SiteConfig {
  const origin = new URL(requestUrl).origin
  return {
    siteUrl: (env.SITE_URL || origin).replace(/\/$/, ''),
    email: env.AGENCY_EMAIL || 'hello@growthagency.example',
    phone: env.AGENCY_PHONE || '+44 20 7946 0958',
    whatsapp: (env.WHATSAPP_NUMBER || '447700900123').replace(/\D/g, ''),
    bookingUrl: env.BOOKING_URL || '',
    social: {
      instagram: env.SOCIAL_INSTAGRAM || 'https://www.instagram.com/',
      facebook: env.SOCIAL_FACEBOOK || 'https://www.facebook.com/',
      twitter: env.SOCIAL_TWITTER || 'https://x.com/',
      linkedin: env.SOCIAL_LINKEDIN || 'https://www.linkedin.com/',
      tiktok: env.SOCIAL_TIKTOK || 'https://www.tiktok.com/',
    },
    fiverrUrl: env.FIVERR_URL || 'https://www.fiverr.com/',
  }
}
