import { Icon } from './page-icon'
import { usePage } from '../render/context'
import { NoticeHost } from './notice-host'

/** sessionStorage flag: the splash has been shown in this browser session. */
const SPLASH_SEEN = 'splash-seen'

// Runs before the first paint, so the splash either shows from the start or never: no flash,
// no layout shift. Without JavaScript (and for crawlers) there is no splash at all.
const SPLASH_SCRIPT = `try{if(!sessionStorage.getItem('${SPLASH_SEEN}')&&!matchMedia('(prefers-reduced-motion: reduce)').matches){document.documentElement.classList.add('splash');sessionStorage.setItem('${SPLASH_SEEN}','1')}}catch(e){}`

/** The splash loader (SPEC §4, §9): 1.5 s, then a 0.3 s fade; CSS in client/styles/base.css. */
export function Splash() {
  const { t, nonce } = usePage()
  return (
    <>
      <script nonce={nonce} dangerouslySetInnerHTML={{ __html: SPLASH_SCRIPT }} />
      <div id="splash" aria-hidden="true">
        <svg viewBox="0 0 32 32" className="h-16 w-16">
          <rect width="32" height="32" rx="8" fill="#2550d9" />
          <path d="M16 5l2.6 8.4L27 16l-8.4 2.6L16 27l-2.6-8.4L5 16l8.4-2.6Z" fill="#fbbf24" />
        </svg>
        <p className="m-0 mt-4 text-lg font-bold text-white">{t('meta.site_name')}</p>
        <span className="sr-only">{t('splash.label')}</span>
      </div>
    </>
  )
}

/**
 * The floating WhatsApp link (bottom-left; bottom-right in Arabic) and the consultation
 * widget (the other corner). Logical `start`/`end` positions mirror them in right-to-left.
 */
export function FloatingActions() {
  const { t, config } = usePage()
  const whatsapp = `https://wa.me/${config.whatsapp}?text=${encodeURIComponent(t('whatsapp.greeting'))}`
  return (
    <>
      <a
        href={whatsapp}
        target="_blank"
        rel="noopener noreferrer"
        data-event="whatsapp_click"
        className="fixed bottom-4 start-4 z-30 flex h-14 w-14 items-center justify-center rounded-full bg-[#128c4a] text-white shadow-lg hover:bg-[#0e6e3a]"
      >
        <svg viewBox="0 0 24 24" className="h-7 w-7" aria-hidden="true" fill="currentColor">
          <path d="M12 2a10 10 0 0 0-8.6 15.1L2 22l5-1.3A10 10 0 1 0 12 2Zm0 18.2a8.2 8.2 0 0 1-4.2-1.1l-.3-.2-3 .8.8-2.9-.2-.3A8.2 8.2 0 1 1 12 20.2Zm4.5-6.1c-.2-.1-1.5-.7-1.7-.8s-.4-.1-.6.1l-.8 1c-.1.2-.3.2-.5.1a6.7 6.7 0 0 1-3.3-2.9c-.2-.4.2-.4.7-1.3.1-.2 0-.3 0-.4l-.8-1.8c-.2-.5-.4-.4-.6-.4h-.5a1 1 0 0 0-.7.3 3 3 0 0 0-.9 2.2 5.2 5.2 0 0 0 1.1 2.7 11.8 11.8 0 0 0 4.5 4c1.7.7 2.4.8 3.2.6a2.8 2.8 0 0 0 1.8-1.3 2.3 2.3 0 0 0 .2-1.3c-.1-.1-.3-.2-.5-.3Z" />
        </svg>
        <span className="sr-only">
          {t('whatsapp.label')} {t('footer.new_tab')}
        </span>
      </a>
      <details data-menu id="consult-widget" className="fixed bottom-4 end-4 z-30">
        <summary className="flex h-14 items-center gap-2 rounded-full bg-accent-400 px-5 font-semibold text-ink-900 shadow-lg hover:bg-accent-500">
          <Icon name="calendar" />
          <span className="hidden sm:inline">{t('widget.open')}</span>
          <span className="sr-only sm:hidden">{t('widget.open')}</span>
        </summary>
        <div className="absolute bottom-16 end-0 w-[min(20rem,calc(100vw-2rem))] rounded-2xl border border-slate-200 bg-white p-5 shadow-xl">
          <p className="m-0 text-lg font-bold text-ink-900">{t('widget.title')}</p>
          <p className="m-0 mt-1 text-sm text-ink-600">{t('widget.text')}</p>
          <div className="mt-4 flex flex-col gap-2">
            <a href="/book" data-booking className="btn-primary">
              {t('common.book_consultation')}
            </a>
            <a href="/contact" className="btn-ghost">
              {t('widget.talk')}
            </a>
          </div>
        </div>
      </details>
    </>
  )
}

/**
 * The scheduling dialog (SPEC §2): the booking page in a frame, loaded only when opened —
 * BOOKING_URL when configured (Calendly, Cal.com…), else our own /book.
 */
export function BookingDialog() {
  const { t, lang, config } = usePage()
  const src = config.bookingUrl || `/book?embed=1&lang=${lang}`
  return (
    <dialog
      id="booking-dialog"
      aria-labelledby="booking-dialog-title"
      className="h-[min(44rem,calc(100dvh-2rem))] w-[min(56rem,calc(100vw-2rem))] max-h-none max-w-none rounded-2xl border-0 p-0 shadow-2xl backdrop:bg-ink-900/60"
    >
      <div className="flex h-full flex-col">
        <div className="flex items-center justify-between gap-4 border-b border-slate-200 px-5 py-3">
          <h2 id="booking-dialog-title" className="m-0 text-lg font-bold text-ink-900">
            {t('booking.dialog_title')}
          </h2>
          <form method="dialog">
            <button
              type="submit"
              aria-label={t('booking.close')}
              className="flex h-11 w-11 items-center justify-center rounded-full text-2xl text-ink-600 hover:bg-slate-100"
            >
              <span aria-hidden="true">×</span>
            </button>
          </form>
        </div>
        {/* Inert until the first opening: a parsed <iframe> would build a frame and its script
            context on every page load, for a dialog most visitors never open. */}
        <template data-booking-frame>
          <iframe src={src} title={t('booking.title')} className="w-full flex-1 border-0" />
        </template>
        <NoticeHost />
      </div>
    </dialog>
  )
}
