import type { ErrorTexts } from '../../client/lib/use-lead-form'
import type { Translator } from '../i18n/translator'

/** The notice wording every lead-form island receives (SPEC §8). */
export function errorTexts(t: Translator): ErrorTexts {
  return {
    errorTitle: t('notices.error_title'),
    errorGeneric: t('notices.error_generic'),
    missingTitle: t('notices.missing_title'),
    challengeFailed: t('errors.challenge_script'),
    mailNotSent: t('notices.mail_not_sent'),
  }
}

/** Notices of the forms that put someone on the subscriber list. */
export function subscribeTexts(t: Translator) {
  return {
    ...errorTexts(t),
    missingText: t('notices.missing_fields'),
    successTitle: t('notices.success_title'),
    successText: t('notices.success_text'),
    alreadyTitle: t('notices.already_title'),
    alreadyText: t('notices.already_text'),
  }
}
