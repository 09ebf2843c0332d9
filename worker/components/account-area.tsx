import { Icon } from './page-icon'
import { usePage } from '../render/context'

/**
 * The navigation's account corner (SPEC §2). Signed out: Sign In and Get Started. Signed in:
 * an Account menu with the e-mail and Sign Out (a form post, so it works without JavaScript).
 */
export function AccountArea({ inline = false }: { inline?: boolean }) {
  const { t, user } = usePage()
  // in the mobile menu the account is shown open, not as a menu inside a menu
  if (user && inline)
    return (
      <div className="px-3">
        <AccountSummary email={user.email} />
      </div>
    )
  if (user)
    return (
      <details data-menu className="relative" data-account>
        <summary className="flex items-center gap-1.5 whitespace-nowrap rounded-md px-3 py-2 text-sm font-semibold text-ink-900 hover:bg-slate-100">
          {t('auth.account')}
          <Icon name="chevron" className="chevron h-4 w-4 transition-transform" />
        </summary>
        <div className="absolute end-0 top-full z-50 mt-2 w-64 rounded-xl border border-slate-200 bg-white p-4 shadow-lg">
          <AccountSummary email={user.email} />
        </div>
      </details>
    )
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

/** Who is signed in, the way to the account page, and Sign Out. */
function AccountSummary({ email }: { email: string }) {
  const { t } = usePage()
  return (
    <>
      <p className="m-0 text-xs text-ink-600">{t('auth.signed_in_as')}</p>
      <p className="m-0 mt-1 break-all text-sm font-semibold text-ink-900">
        <bdi>{email}</bdi>
      </p>
      <a href="/account" className="mt-3 block text-sm font-semibold text-brand-700">
        {t('auth.account_settings')}
      </a>
      <SignOutForm className="mt-4" />
    </>
  )
}

/** Sign Out: a form post, so it works without JavaScript (worker/auth/routes.ts). */
export function SignOutForm({
  className = '',
  button = 'btn-ghost w-full py-2 text-sm',
}: {
  className?: string
  button?: string
}) {
  const { t } = usePage()
  return (
    <form method="post" action="/auth/sign-out" className={className}>
      <button type="submit" className={button}>
        {t('auth.sign_out')}
      </button>
    </form>
  )
}
