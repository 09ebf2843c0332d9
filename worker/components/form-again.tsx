import type { Context } from 'hono'
import { Field } from '../../client/components/field'
import type { ChallengeAction } from '../challenge/turnstile'
import type { AppEnv } from '../env'
import { usePage } from '../render/context'
import { ChallengeSlot, challengeAttrs, ResumeNote, ResumeScript } from './challenge'
import { Icon } from './page-icon'
import { PageHero } from './page-parts'

/** A field of the form as the visitor filled it in. */
export interface TypedField {
  name: string
  label: string
  value: string
  type?: 'text' | 'email'
  autoComplete?: string
  maxLength: number
}

export interface FormAgain {
  title: string
  /** Why nothing was e-mailed yet, and that JavaScript is needed (what it says without it). */
  text: string
  /** Where the form posts, and the challenge it carries. */
  action: string
  challenge: ChallengeAction
  fields: TypedField[]
  hidden?: Record<string, string>
  submit: string
  /** What the post gave at once all the same (the guide's file). */
  download?: { href: string; label: string }
}

/**
 * The answer to a lead form (newsletter box, welcome popup, free guide) posted without the
 * challenge's token: by a browser whose scripts had not come yet, or without JavaScript. The
 * form again, as it was sent, with its challenge: once the page's scripts run it sends itself
 * (ResumeScript), and the e-mail goes with nothing typed again; without JavaScript it says
 * JavaScript is needed, and keeps what was typed. It names no state of the address, so the
 * answer is the same whatever the list holds (docs/bots.md).
 */
function FormAgainPage({ page }: { page: FormAgain }) {
  const { t, challenge } = usePage()
  const id = (name: string) => `again-${name}`
  return (
    <>
      <PageHero title={page.title}>
        <ResumeNote text={page.text} />
      </PageHero>
      <section className="container max-w-3xl space-y-6 pb-16">
        {page.download && (
          <a href={page.download.href} className="btn-primary" download>
            <Icon name="download" />
            {page.download.label}
          </a>
        )}
        <form
          method="post"
          action={page.action}
          className="card space-y-4"
          {...challengeAttrs(challenge, t, page.challenge, true)}
        >
          {Object.entries(page.hidden ?? {}).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          {page.fields.map((f) => (
            <Field
              key={f.name}
              id={id(f.name)}
              name={f.name}
              type={f.type ?? 'text'}
              label={f.label}
              autoComplete={f.autoComplete}
              required
              maxLength={f.maxLength}
              defaultValue={f.value}
            />
          ))}
          <ChallengeSlot />
          <button type="submit" className="btn-primary">
            {page.submit}
          </button>
        </form>
        <ResumeScript />
      </section>
    </>
  )
}

/**
 * 200, as the answer of a post without a token has always been (a bot learns nothing from it);
 * the visitor's own page: kept by no cache. An errand page (`quiet`): nothing pops up over it.
 */
export function formAgain(c: Context<AppEnv>, page: FormAgain) {
  c.header('Cache-Control', 'no-store')
  c.set('quiet', true)
  return c.render(<FormAgainPage page={page} />, {
    title: `${page.title} | ${c.var.t('meta.title_suffix')}`,
    description: page.text,
  }) as Response | Promise<Response>
}
