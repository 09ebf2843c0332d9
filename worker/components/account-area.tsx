import { usePage } from '../pages/context'

/**
 * The navigation's account corner. Signed out (the only state until sign-in lands): Sign In
 * and Get Started (SPEC §2). The signed-in Account menu slots in here.
 */
export function AccountArea() {
  const { t } = usePage()
  return (
    <>
      <a
        href="/auth"
        className="whitespace-nowrap rounded-md px-3 py-2 text-center text-sm font-semibold text-ink-900 no-underline hover:bg-slate-100"
      >
        {t('nav.sign_in')}
      </a>
      <a href="/contact" className="btn-primary whitespace-nowrap px-4 py-2 text-sm">
        {t('common.get_started')}
      </a>
    </>
  )
}
