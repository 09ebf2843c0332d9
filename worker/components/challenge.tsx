import type { ChallengeAction, ChallengeProps } from '../challenge/turnstile'
import type { Translator } from '../i18n/translator'
import { usePage } from '../render/context'

/**
 * What a form the browser posts itself (sign-up, sign-in link, password reset, data request)
 * carries for its challenge: client/enhance/challenge.ts reads these attributes, puts a fresh
 * token in the form and sends it on. Without JavaScript the form posts without one.
 *
 * `resume`: the form is the answer to a post that came without a token (pressed before the
 * page's scripts had come, or without JavaScript), filled in as it was sent; once the page's
 * scripts run it sends itself again, with a token (`ResumeScript`). A string names the query
 * parameter that made the page such an answer: it leaves the address before the form is sent,
 * so a reload or the way back to it sends nothing again.
 */
export function challengeAttrs(
  challenge: ChallengeProps,
  t: Translator,
  action: ChallengeAction,
  resume?: true | string,
) {
  return challenge
    ? {
        'data-challenge': action,
        'data-challenge-key': challenge.siteKey,
        'data-challenge-script': challenge.scriptUrl,
        'data-challenge-error': t('errors.challenge_script'),
        ...(resume ? { 'data-challenge-resume': resume === true ? '' : resume } : {}),
      }
    : {}
}

/** Where the widget draws itself inside the form, should Cloudflare want the visitor. */
export function ChallengeSlot() {
  return <div data-challenge-slot="" className="empty:hidden" />
}

/**
 * What the answer to a post without a token says: without JavaScript, `text` (why nothing was
 * sent, and that JavaScript is needed); where the page's JavaScript runs, ResumeScript puts
 * forms.resume_text in its place (one moment, it goes on by itself).
 */
export function ResumeNote({
  text,
  // as a page's subtitle (components/page-parts.tsx PageHero), below which it stands
  className = 'm-0 mt-4 max-w-2xl text-lg text-ink-700',
}: {
  text: string
  className?: string
}) {
  const { t } = usePage()
  return (
    <p role="status" data-resume-note={t('forms.resume_text')} className={className}>
      {text}
    </p>
  )
}

// Inline, on the answer pages only: the home page's bundle does not grow by a byte. It runs as
// the page is read, whether or not the site's scripts have come; it waits for them (the
// challenge's submit handler, client/enhance/challenge.ts, is theirs), then sends the form once.
// If they have not come after 30 s, the note says again what it says without JavaScript.
const RESUME_SCRIPT = `(()=>{const d=document,f=d.querySelector('form[data-challenge-resume]');if(!f)return;const n=d.querySelector('[data-resume-note]'),was=n&&n.textContent,say=s=>{if(n)n.textContent=s?n.dataset.resumeNote:was};say(1);const q=f.dataset.challengeResume;if(q){const u=new URL(location.href);if(u.searchParams.has(q)){u.searchParams.delete(q);history.replaceState(history.state,'',u)}}const late=setTimeout(()=>say(0),30000);let o;const go=()=>{if(!d.body.hasAttribute('data-hydrated'))return;o.disconnect();clearTimeout(late);say(1);f.requestSubmit()};o=new MutationObserver(go);o.observe(d.body,{attributes:true,attributeFilter:['data-hydrated']});go()})()`

/** After the form marked `resume` (challengeAttrs): sends it once the page's scripts have run. */
export function ResumeScript() {
  const { nonce, challenge } = usePage()
  if (!challenge) return null
  return <script nonce={nonce} dangerouslySetInnerHTML={{ __html: RESUME_SCRIPT }} />
}
