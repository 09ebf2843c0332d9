import NewsletterForm from '../../client/islands/newsletter-form'
import { usePage } from '../render/context'
import { errorTexts } from './form-texts'

/** The footer's Stay Updated box (SPEC §2). */
export function NewsletterBox() {
  const { t, challenge } = usePage()
  return (
    <section aria-labelledby="newsletter-title" className="mt-6 rounded-xl bg-white/5 p-4">
      <h2 id="newsletter-title" className="m-0 text-sm font-semibold text-white">
        {t('footer.newsletter_title')}
      </h2>
      <p className="m-0 mt-1 text-xs text-slate-300">{t('footer.newsletter_text')}</p>
      <NewsletterForm
        challenge={challenge}
        labels={{
          email: t('footer.newsletter_email'),
          submit: t('footer.newsletter_submit'),
          submitting: t('forms.sending'),
          honeypot: t('forms.honeypot'),
          thanksTitle: t('footer.newsletter_thanks_title'),
          thanksText: t('footer.newsletter_thanks_text'),
        }}
        notices={{
          ...errorTexts(t),
          // the footer box asks for the e-mail only
          missingText: t('notices.missing_fields'),
          successTitle: t('notices.newsletter_title'),
          successText: t('notices.newsletter_text'),
          alreadyTitle: t('notices.newsletter_already_title'),
          alreadyText: t('notices.newsletter_already_text'),
        }}
      />
    </section>
  )
}
