import { usePage } from '../pages/context'

/** The footer's Stay Updated box (SPEC §2). */
export function NewsletterBox() {
  const { t } = usePage()
  return (
    <section aria-labelledby="newsletter-title" className="mt-6 rounded-xl bg-white/5 p-4">
      <h2 id="newsletter-title" className="m-0 text-sm font-semibold text-white">
        {t('footer.newsletter_title')}
      </h2>
      <p className="m-0 mt-1 text-xs text-slate-300">{t('footer.newsletter_text')}</p>
      <form method="post" action="/api/newsletter" className="mt-3 flex gap-2">
        <label htmlFor="newsletter-email" className="sr-only">
          {t('footer.newsletter_email')}
        </label>
        <input
          id="newsletter-email"
          name="email"
          type="email"
          required
          autoComplete="email"
          placeholder={t('footer.newsletter_email')}
          className="min-w-0 flex-1 rounded-lg border border-white/20 bg-white px-3 py-2 text-sm text-ink-900"
        />
        <button type="submit" className="btn-accent px-4 py-2 text-sm">
          {t('footer.newsletter_submit')}
        </button>
      </form>
    </section>
  )
}
