import type { Lang } from '../../client/lib/languages'
import { GUIDE_SLUGS, type GuideSlug } from '../../client/schemas/leads'

/** The free guides' address: a printable page in the visitor's language, or its download. */
export function guideUrl(slug: GuideSlug, lang: Lang, download = false) {
  return `/guides/${slug}?lang=${lang}${download ? '&download=1' : ''}`
}

export const isGuideSlug = (s: string): s is GuideSlug =>
  (GUIDE_SLUGS as readonly string[]).includes(s)

/** The guide the welcome popup's "Digital Marketing Starter Guide" e-mail links to. */
export const STARTER_GUIDE: GuideSlug = 'invisible-business-mistakes'
