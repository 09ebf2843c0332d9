import { useEffect, useRef, useState } from 'react'
import { labelClass } from '../components/field'
import { markSending } from '../enhance/busy-forms'
import { defineIsland } from '../island'
import { CARD_HEIGHT, CARD_WIDTH } from '../lib/media-picture'
import { drawCard } from '../lib/social-card'

/** A card stored for a language: its file and the title and cover it was drawn with. */
export type StoredCard = { name: string; title: string; cover: string }

export type SocialCardProps = {
  /** The editor's tab. On the English tab (where the cover is chosen) every language's card is drawn. */
  tab: string
  /** The saved titles by language; the tab's own is read from its field as one types. */
  titles: Record<string, string>
  dirs: Record<string, 'ltr' | 'rtl'>
  cards: Record<string, StoredCard>
  /** The saved cover's name ('' for none). */
  cover: string
  /** A size of each picture the cover field offers, to draw from, by name. */
  coverSources: Record<string, string>
  siteName: string
  heading: string
  hint: string
  /** Shown without JavaScript when the tab has no card for its title and cover. */
  none: string
  /** "Social card: {{title}}". */
  alt: string
}

type Drawn = { blob: Blob; title: string; cover: string }

const dataUrl = (blob: Blob) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result))
    reader.onerror = () => reject(reader.error)
    reader.readAsDataURL(blob)
  })

const cardOf = (props: SocialCardProps, lang: string, title: string, cover: string) => {
  const stored = props.cards[lang]
  return stored && stored.title === title && stored.cover === cover ? stored : null
}

/**
 * The article's social card, as LinkedIn, X, WhatsApp and Slack will show it. The browser
 * draws it (client/lib/social-card.ts) from the title and cover in the form as they change, and
 * sends it with the save for each language whose stored card was drawn for another title or
 * cover (docs/decisions/007-social-cards.md). Without JavaScript: the stored card, if current.
 */
function SocialCard(props: SocialCardProps) {
  const box = useRef<HTMLDivElement>(null)
  const stored = cardOf(props, props.tab, props.titles[props.tab] ?? '', props.cover)
  const [preview, setPreview] = useState(stored ? `/media/${stored.name}` : '')
  const [title, setTitle] = useState(props.titles[props.tab] ?? '')

  useEffect(() => {
    const form = box.current?.closest('form')
    if (!form) return
    const field = (name: string) =>
      form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement | null
    const drawn = new Map<string, Drawn>()
    let dirty = true
    let drawing: Promise<void> | null = null
    let timer: ReturnType<typeof setTimeout> | undefined

    /** The cover as the form has it: a file just chosen, a stored picture, or none. */
    async function coverNow(): Promise<{ key: string; image: ImageBitmap | null }> {
      const file = (field('picture') as HTMLInputElement | null)?.files?.[0]
      if (file)
        return { key: `new:${file.name}:${file.size}`, image: await createImageBitmap(file) }
      const name = field('cover')?.value ?? props.cover
      const src = name && props.coverSources[name]
      if (!src) return { key: name, image: null }
      const res = await fetch(src)
      return { key: name, image: res.ok ? await createImageBitmap(await res.blob()) : null }
    }

    async function redraw() {
      dirty = false
      const cover = await coverNow().catch(() => ({ key: props.cover, image: null }))
      const tabTitle = (field('text.title')?.value ?? '').trim()
      setTitle(tabTitle)
      const langs = props.tab === 'en' ? Object.keys(props.titles) : [props.tab]
      if (!langs.includes(props.tab)) langs.push(props.tab)
      for (const lang of langs) {
        const t = lang === props.tab ? tabTitle : (props.titles[lang] ?? '')
        if (!t) continue
        const blob = await drawCard(
          { title: t, lang, dir: props.dirs[lang] ?? 'ltr', siteName: props.siteName },
          cover.image,
        )
        drawn.set(lang, { blob, title: t, cover: cover.key })
        // a data: URL, which the page's img-src allows (blob: it does not)
        if (lang === props.tab) setPreview(await dataUrl(blob))
      }
      cover.image?.close()
    }
    const start = () => {
      drawing = redraw()
        .catch(() => {
          // no card this time: the article shares with the blog's card (decision 007)
        })
        .finally(() => {
          drawing = null
        })
      return drawing
    }
    const changed = (e: Event) => {
      const name = (e.target as HTMLInputElement | null)?.name
      if (name !== 'text.title' && name !== 'cover' && name !== 'picture') return
      dirty = true
      clearTimeout(timer)
      timer = setTimeout(start, 400)
    }
    // a save waits for the card of what it saves (seconds, from a phone's photo), its button
    // busy meanwhile; a second tap while it waits sends nothing more
    let waiting = false
    const submit = (e: SubmitEvent) => {
      if (waiting) return e.preventDefault()
      if (!dirty && !drawing) return
      e.preventDefault()
      clearTimeout(timer)
      waiting = true
      const ready = markSending(form, e.submitter)
      void (drawing ?? start()).then(async () => {
        if (dirty) await start()
        ready()
        waiting = false
        form.requestSubmit(e.submitter)
      })
    }
    const formdata = (e: FormDataEvent) => {
      for (const [lang, card] of drawn) {
        const coverName = card.cover.startsWith('new:') ? null : card.cover
        if (coverName !== null && cardOf(props, lang, card.title, coverName)) continue
        e.formData.append(`card_${lang}`, new File([card.blob], `card-${lang}.jpg`))
      }
    }
    form.addEventListener('input', changed)
    form.addEventListener('change', changed)
    form.addEventListener('submit', submit)
    form.addEventListener('formdata', formdata)
    void start()
    return () => {
      clearTimeout(timer)
      form.removeEventListener('input', changed)
      form.removeEventListener('change', changed)
      form.removeEventListener('submit', submit)
      form.removeEventListener('formdata', formdata)
    }
  }, [props])

  return (
    <div ref={box} className="space-y-2">
      <p className={labelClass}>{props.heading}</p>
      {preview ? (
        <img
          src={preview}
          width={CARD_WIDTH / 2}
          height={CARD_HEIGHT / 2}
          alt={props.alt.replace('{{title}}', title)}
          data-social-card={props.tab}
          className="block h-auto w-full max-w-xl rounded-lg border border-slate-200"
        />
      ) : (
        <p className="m-0 text-sm text-ink-600">{props.none}</p>
      )}
      <p className="m-0 text-xs text-ink-600">{props.hint}</p>
    </div>
  )
}

export default defineIsland('social-card', SocialCard, 'load')
