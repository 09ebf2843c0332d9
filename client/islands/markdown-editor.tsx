import { useEffect, useRef, useState } from 'react'
import { labelClass, TextAreaField } from '../components/field'
import { PicturePicker, type PicturePickerTexts } from '../components/picture-picker'
import { defineIsland } from '../island'
import type { MediaPicture } from '../lib/media-picture'
import { useTypedState } from '../lib/typed-value'
import { useHydrated } from '../lib/use-hydrated'

export type MarkdownEditorProps = {
  /** The form field's name and id. */
  name: string
  id: string
  label: string
  hint: string
  value: string
  error?: string
  /** The text's language and direction (a tab of the editor). */
  lang: string
  dir: 'ltr' | 'rtl'
  previewLabel: string
  /** The saved text's HTML, as the page shows it (sanitised on the server). */
  previewHtml: string
  /** Where the server renders Markdown as the public page does (desk/content.tsx). */
  previewUrl: string
  /** The toolbar's "Insert picture": the stored pictures, where an upload goes, its words. */
  picker?: {
    pictures: MediaPicture[]
    uploadUrl: string
    /** The toolbar's name. */
    toolbar: string
    texts: PicturePickerTexts
  }
}

/**
 * An article's Markdown beside its preview. The preview is the server's rendering of the text
 * (the public page's own code and sanitiser), asked for a moment after typing stops; without
 * JavaScript the field is a plain textarea and the preview is the saved version.
 */
function MarkdownEditor(props: MarkdownEditorProps) {
  // what was typed before the script came, else the saved text (lib/typed-value.ts)
  const [text, setText] = useTypedState(props.id, props.value)
  const [html, setHtml] = useState(props.previewHtml)
  // the server's preview is of the saved text: asked anew only once the text differs from it
  const previewed = useRef(props.value)
  // the toolbar works only with JavaScript, so it appears only with it
  const hydrated = useHydrated()
  const caret = useRef<number | null>(null)
  useEffect(() => {
    const at = caret.current
    const area = document.getElementById(props.id) as HTMLTextAreaElement | null
    if (at === null || !area) return
    caret.current = null
    area.focus()
    area.setSelectionRange(at, at)
  }, [text, props.id])

  /** A picture's Markdown at the cursor, as a paragraph of its own. */
  function insertAtCursor(markdown: string) {
    const area = document.getElementById(props.id) as HTMLTextAreaElement | null
    const start = area?.selectionStart ?? text.length
    const end = area?.selectionEnd ?? text.length
    const before = text.slice(0, start)
    const after = text.slice(end)
    const lead =
      before === '' || before.endsWith('\n\n') ? '' : before.endsWith('\n') ? '\n' : '\n\n'
    const tail =
      after === '' || after.startsWith('\n\n') ? '' : after.startsWith('\n') ? '\n' : '\n\n'
    caret.current = before.length + lead.length + markdown.length
    setText(before + lead + markdown + tail + after)
  }
  useEffect(() => {
    if (text === previewed.current) return
    const controller = new AbortController()
    const timer = setTimeout(async () => {
      try {
        const res = await fetch(props.previewUrl, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ body: text }),
          signal: controller.signal,
        })
        if (!res.ok) return
        setHtml(((await res.json()) as { html: string }).html)
        previewed.current = text
      } catch {
        // a preview that did not come leaves the last one
      }
    }, 400)
    return () => {
      clearTimeout(timer)
      controller.abort()
    }
  }, [text, props.previewUrl])
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <div className="min-w-0 space-y-2">
        {hydrated && props.picker && (
          <div
            role="toolbar"
            aria-label={props.picker.toolbar}
            aria-controls={props.id}
            className="flex flex-wrap gap-2"
          >
            <PicturePicker
              pictures={props.picker.pictures}
              uploadUrl={props.picker.uploadUrl}
              lang={props.lang}
              dir={props.dir}
              texts={props.picker.texts}
              onInsert={insertAtCursor}
            />
          </div>
        )}
        <TextAreaField
          id={props.id}
          name={props.name}
          label={props.label}
          lang={props.lang}
          dir={props.dir}
          rows={24}
          required
          value={text}
          onChange={(e) => setText(e.target.value)}
          note={props.hint}
          error={props.error}
          inputClassName="text-base leading-relaxed"
        />
      </div>
      <section aria-label={props.previewLabel} className="min-w-0">
        <p className={labelClass} aria-hidden="true">
          {props.previewLabel}
        </p>
        {/* scrolls once the article is long (or its pictures load): in the tab order, so a
            keyboard scrolls it too */}
        <div
          lang={props.lang}
          dir={props.dir}
          className="prose max-h-[40rem] overflow-auto rounded-lg border border-slate-200 bg-white p-4"
          // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- axe: scrollable-region-focusable
          tabIndex={0}
          // the server's sanitised rendering (content/markdown.ts), never the raw text
          dangerouslySetInnerHTML={{ __html: html }}
        />
      </section>
    </div>
  )
}

export default defineIsland('markdown-editor', MarkdownEditor, 'load')
