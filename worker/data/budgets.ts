import type { BUDGETS } from '../../client/schemas/leads'
import { formatPrice } from '../i18n/format'
import type { Translator } from '../i18n/translator'

type Budget = (typeof BUDGETS)[number]

/** The amounts in a budget choice, as money in the reader's language ("1 000 $US", "1.000 $"). */
const BUDGET_AMOUNTS: Record<Budget, Record<string, number>> = {
  under_1k: { amount: 1000 },
  '1k_5k': { from: 1000, to: 5000 },
  '5k_15k': { from: 5000, to: 15000 },
  over_15k: { amount: 15000 },
}

/** A budget choice as the contact form and the agency's notice word it. */
export const budgetLabel = (t: Translator, budget: Budget) =>
  t(
    `contact.budgets.${budget}`,
    Object.fromEntries(
      Object.entries(BUDGET_AMOUNTS[budget]).map(([k, n]) => [k, formatPrice(t.lang, n)]),
    ),
  )
