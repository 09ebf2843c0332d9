import { useId, useRef, useState } from 'react'
import { openDialog } from '../enhance/dialogs'
import { sizeName, type MediaPicture } from '../lib/media-picture'
import { inputClass, labelClass } from './field'

export type PicturePickerTexts = {
  open: string
  title: string
  pick: string
  none: string
  upload: string
  uploadHint: string
  uploading: string
  uploadFailed: string
  /** The description's label, naming the tab's language. */
  alt: string
  altRequired: string
  pickRequired: string
  insert: string
  cancel: string
}

const thumb = (p: MediaPicture) =>
  `/media/${p.widths?.length ? sizeName(p.name, p.widths[0]!, 'webp') : p.name}`

/**
 * "Insert picture" for the Markdown toolbar: a dialog listing the stored pictures and taking an
 * upload (POST `uploadUrl`, content/media.ts), then a description in the text's language, which
 * is required; `onInsert` gets the Markdown of the picture.
 */
export function PicturePicker({
  pictures: initial,
  uploadUrl,
  lang,
  dir,
  texts,
  onInsert,
}: {
  pictures: MediaPicture[]
  uploadUrl: string
  lang: string
  dir: 'ltr' | 'rtl'
  texts: PicturePickerTexts
  onInsert: (markdown: string) => void
}) {
  const id = useId()
  const dialog = useRef<HTMLDialogElement>(null)
  const altInput = useRef<HTMLInputElement>(null)
  const [pictures, setPictures] = useState(initial)
  const [chosen, setChosen] = useState('')
  const [alt, setAlt] = useState('')
  const [error, setError] = useState<{ field: 'pick' | 'alt' | 'upload'; text: string } | null>(
    null,
  )
  const [busy, setBusy] = useState(false)

  async function upload(file: File) {
    setBusy(true)
    setError(null)
    try {
      const body = new FormData()
      body.append('picture', file)
      // JSON asked for: a refusal comes back as the field's message, not as the error page
      const res = await fetch(uploadUrl, {
        method: 'POST',
        body,
        headers: { Accept: 'application/json' },
      })
      const answer = (await res.json().catch(() => ({}))) as {
        media?: MediaPicture
        error?: string
      }
      if (!res.ok || !answer.media) {
        setError({ field: 'upload', text: answer.error ?? texts.uploadFailed })
        return
      }
      const media = answer.media
      setPictures((list) => [media, ...list.filter((p) => p.name !== media.name)])
      setChosen(media.name)
      altInput.current?.focus()
    } catch {
      setError({ field: 'upload', text: texts.uploadFailed })
    } finally {
      setBusy(false)
    }
  }

  function insert() {
    if (!chosen) return setError({ field: 'pick', text: texts.pickRequired })
    const description = alt.trim()
    if (!description) {
      setError({ field: 'alt', text: texts.altRequired })
      altInput.current?.focus()
      return
    }
    // brackets would end the description early
    onInsert(`![${description.replace(/[[\]\\]/g, '\\$&')}](/media/${chosen})`)
    setAlt('')
    setChosen('')
    setError(null)
    dialog.current?.close()
  }

  const errorOf = (field: 'pick' | 'alt' | 'upload') =>
    error?.field === field ? (
      <p id={`${id}-${field}-error`} className="m-0 mt-1 text-sm text-red-700" role="alert">
        {error.text}
      </p>
    ) : null

  return (
    <>
      <button
        type="button"
        className="btn-ghost px-3 py-1.5 text-sm"
        onClick={(e) => dialog.current && openDialog(dialog.current, e.currentTarget)}
      >
        {texts.open}
      </button>
      <dialog
        ref={dialog}
        aria-labelledby={`${id}-title`}
        className="w-[min(48rem,calc(100vw-2rem))] max-w-none rounded-2xl border-0 p-0 shadow-2xl backdrop:bg-ink-900/60"
      >
        <div className="max-h-[calc(100dvh-4rem)] space-y-4 overflow-auto p-5">
          <h2 id={`${id}-title`} className="m-0 text-lg font-bold text-ink-900">
            {texts.title}
          </h2>
          <fieldset className="m-0 border-0 p-0">
            <legend className={labelClass}>{texts.pick}</legend>
            {pictures.length === 0 ? (
              <p className="m-0 text-sm text-ink-600">{texts.none}</p>
            ) : (
              <ul className="m-0 grid max-h-72 list-none grid-cols-3 gap-2 overflow-auto p-1 sm:grid-cols-4">
                {pictures.map((p) => (
                  <li key={p.name}>
                    <label className="block cursor-pointer rounded-lg border-2 border-transparent p-1 has-[:checked]:border-brand-600 has-[:focus-visible]:outline has-[:focus-visible]:outline-2">
                      <input
                        type="radio"
                        name={`${id}-picture`}
                        value={p.name}
                        checked={chosen === p.name}
                        onChange={() => setChosen(p.name)}
                        className="sr-only"
                        aria-describedby={error?.field === 'pick' ? `${id}-pick-error` : undefined}
                      />
                      <img
                        src={thumb(p)}
                        alt=""
                        width={p.width}
                        height={p.height}
                        loading="lazy"
                        className="block aspect-[4/3] h-auto w-full rounded object-cover"
                      />
                      <span className="block truncate text-xs text-ink-600" dir="ltr">
                        {p.width}×{p.height} · {p.name.slice(0, 8)}
                      </span>
                    </label>
                  </li>
                ))}
              </ul>
            )}
            {errorOf('pick')}
          </fieldset>
          <div>
            <label htmlFor={`${id}-file`} className={labelClass}>
              {texts.upload}
            </label>
            <input
              id={`${id}-file`}
              type="file"
              accept="image/jpeg,image/png,image/webp"
              disabled={busy}
              aria-describedby={`${id}-file-hint${error?.field === 'upload' ? ` ${id}-upload-error` : ''}`}
              onChange={(e) => {
                const file = e.currentTarget.files?.[0]
                if (file) void upload(file)
                e.currentTarget.value = ''
              }}
              className="block w-full text-sm"
            />
            <p id={`${id}-file-hint`} className="m-0 mt-1 text-xs text-ink-600">
              {busy ? texts.uploading : texts.uploadHint}
            </p>
            {errorOf('upload')}
          </div>
          <div>
            <label htmlFor={`${id}-alt`} className={labelClass}>
              {texts.alt}
            </label>
            <input
              ref={altInput}
              id={`${id}-alt`}
              value={alt}
              onChange={(e) => setAlt(e.target.value)}
              onKeyDown={(e) => {
                // Enter inserts here; it must not save the article around the dialog
                if (e.key === 'Enter') {
                  e.preventDefault()
                  insert()
                }
              }}
              lang={lang}
              dir={dir}
              maxLength={300}
              required
              aria-invalid={error?.field === 'alt' ? true : undefined}
              aria-describedby={error?.field === 'alt' ? `${id}-alt-error` : undefined}
              className={inputClass}
            />
            {errorOf('alt')}
          </div>
          <div className="flex flex-wrap justify-end gap-3">
            <button type="button" className="btn-ghost" onClick={() => dialog.current?.close()}>
              {texts.cancel}
            </button>
            <button type="button" className="btn-primary" disabled={busy} onClick={insert}>
              {texts.insert}
            </button>
          </div>
        </div>
      </dialog>
    </>
  )
}
