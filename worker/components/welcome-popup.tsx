import SignupForm from '../../client/islands/signup-form'
import { usePage } from '../render/context'
import { subscribeTexts } from './form-texts'
import { NoticeHost } from './notice-host'

/**
 * The welcome popup (SPEC §4): a native <dialog>, so the browser traps focus, closes it on
 * Escape and returns focus. `client/enhance/welcome.ts` opens it once per browser.
 */
export function WelcomePopup() {
  const { t, challenge } = usePage()
  return (
    <dialog
      id="welcome-popup"
      aria-labelledby="welcome-popup-title"
      className="w-[min(28rem,calc(100vw-2rem))] rounded-2xl border-0 p-0 shadow-2xl backdrop:bg-ink-900/60"
    >
      <div className="relative p-6 sm:p-8">
        <form method="dialog" className="absolute end-3 top-3">
          <button
            type="submit"
            aria-label={t('popup.close')}
            className="flex h-11 w-11 items-center justify-center rounded-full text-2xl text-ink-600 hover:bg-slate-100"
          >
            <span aria-hidden="true">×</span>
          </button>
        </form>
        <p className="eyebrow m-0">{t('home.guides_eyebrow')}</p>
        <h2 id="welcome-popup-title" className="m-0 mt-2 pe-8 text-2xl font-extrabold text-ink-900">
          {t('popup.title')}
        </h2>
        <p className="m-0 mb-5 mt-2 text-ink-700">{t('popup.text')}</p>
        <NoticeHost />
        <SignupForm
          challenge={challenge}
          labels={{
            name: t('popup.name'),
            email: t('popup.email'),
            submit: t('popup.submit'),
            submitting: t('popup.submitting'),
            honeypot: t('forms.honeypot'),
            thanksTitle: t('popup.thanks_title'),
            thanksText: t('popup.thanks_text'),
          }}
          notices={subscribeTexts(t)}
        />
      </div>
    </dialog>
  )
}
