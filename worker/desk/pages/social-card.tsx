import SocialCard, { type StoredCard } from '../../../client/islands/social-card'
import { dirOf, type Lang } from '../../../client/lib/languages'
import { sizeName, type MediaPicture } from '../../../client/lib/media-picture'
import { FIRST_SIZE, firstWidth } from '../../content/media-sizes'
import type { FullItem } from '../../db/content'
import { usePage } from '../../render/context'

/**
 * A picture to draw a card from: its first size (near the card's width, made before its upload
 * was answered, so never the picture itself while its other sizes are made), or the picture
 * itself for one stored before sizes were made.
 */
const drawable = (p: MediaPicture) =>
  `/media/${p.widths?.length ? sizeName(p.name, firstWidth(p.widths), FIRST_SIZE.format.ext) : p.name}`

/** The article editor's social card (the social-card island): its props from the saved item. */
export function ArticleCardField({
  item,
  tab,
  pictures,
}: {
  item: FullItem
  tab: Lang
  pictures: MediaPicture[]
}) {
  const { t } = usePage()
  const titles: Record<string, string> = {}
  const dirs: Record<string, 'ltr' | 'rtl'> = { [tab]: dirOf(tab) }
  for (const [l, text] of Object.entries(item.texts)) {
    if (typeof text?.fields.title === 'string') titles[l] = text.fields.title
    dirs[l] = dirOf(l as Lang)
  }
  const cover = item.fields.cover as MediaPicture | undefined
  const coverSources: Record<string, string> = {}
  for (const p of cover ? [cover, ...pictures] : pictures) coverSources[p.name] = drawable(p)
  return (
    <SocialCard
      tab={tab}
      titles={titles}
      dirs={dirs}
      cards={(item.fields.cards ?? {}) as Record<string, StoredCard>}
      cover={cover?.name ?? ''}
      coverSources={coverSources}
      siteName={t('meta.site_name')}
      heading={t('desk.content.card.heading')}
      hint={t(tab === 'en' ? 'desk.content.card.hint_all' : 'desk.content.card.hint')}
      none={t('desk.content.card.none')}
      alt={t('desk.content.card.alt', { title: '{{title}}' })}
    />
  )
}
