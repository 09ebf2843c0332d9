import type { BUDGETS } from '../../../client/schemas/leads'
import { budgetLabel } from '../../data/budgets'
import { findService } from '../../data/services'
import { spokenBy, type MailTemplate } from './context'

/** A contact-page message, for the agency; a reply goes to the visitor. */
export const agencyContact: MailTemplate<{
  name: string
  email: string
  company?: string
  service: string
  budget?: (typeof BUDGETS)[number] | ''
  message: string
  language: string
}> = {
  category: 'agency',
  letter: ({ t, lang }, m) => {
    const found = findService(m.service)
    const service = found ? t(`services.items.${found.key}.name`) : t('contact.other_service')
    const details: [string, string][] = [
      [t('mail.label_name'), m.name],
      [t('mail.label_email'), m.email],
    ]
    if (m.company) details.push([t('mail.label_company'), m.company])
    details.push([t('mail.label_service'), service])
    if (m.budget) details.push([t('mail.label_budget'), budgetLabel(t, m.budget)])
    details.push([t('mail.label_language'), spokenBy(lang, m.language)])
    return {
      subject: t('mail.agency_contact_subject', { name: m.name }),
      // by code point, so an emoji is never cut in half
      preview: Array.from(m.message).slice(0, 120).join(''),
      paragraphs: [t('mail.agency_contact_intro')],
      details,
      quote: m.message,
      replyTo: m.email,
    }
  },
}
