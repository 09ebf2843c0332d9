import type { PreflightContext } from 'unocss'
import { defineConfig, presetWind3, transformerVariantGroup } from 'unocss'

/**
 * The defaults of the variables that transform, shadow and ring utilities compose (only those a
 * used utility needs). The preset sets them on every element and pseudo-element, ~25 custom
 * properties each: a full style recalculation of the home page took 10.7 ms instead of 2.9.
 * As Tailwind 4 does, they are registered instead (`@property`, not inherited, with an initial
 * value); the empty ones cannot be an initial value and are inherited from the root, as no
 * utility of ours sets them. Engines without `@property` (Safari < 16.4, Firefox < 128) get
 * the old defaults.
 */
function utilityVariables({ theme, generator }: PreflightContext<object>) {
  const used = new Set(
    [...generator.getActivatedRules()].flatMap((rule) => rule[2]?.custom?.preflightKeys ?? []),
  )
  const base = (theme as { preflightBase?: Record<string, string | number> }).preflightBase ?? {}
  const vars = Object.entries(base).filter(([name]) => used.has(name))
  if (!vars.length) return undefined
  const all = vars.map(([name, value]) => `${name}:${value}`).join(';')
  const empty = vars.filter(([, value]) => String(value).trim() === '')
  return [
    ...vars
      .filter(([, value]) => String(value).trim() !== '')
      .map(
        ([name, value]) => `@property ${name}{syntax:"*";inherits:false;initial-value:${value}}`,
      ),
    empty.length ? `:root{${empty.map(([name, value]) => `${name}:${value}`).join(';')}}` : '',
    `@supports ((-webkit-hyphens:none) and (not (margin-trim:inline))) or ((-moz-orient:inline) and (not (color:rgb(from red r g b)))){*,::before,::after,::backdrop{${all}}}`,
  ].join('')
}

export default defineConfig({
  // Server-only components never reach the client bundle, so scan the sources themselves.
  content: { filesystem: ['worker/**/*.tsx', 'client/**/*.{ts,tsx}'] },
  presets: [presetWind3({ preflight: false })],
  preflights: [{ layer: 'preflights', getCSS: utilityVariables }],
  transformers: [transformerVariantGroup()],
  theme: {
    colors: {
      brand: {
        50: '#eef4ff',
        100: '#dbe6ff',
        200: '#bfd2ff',
        500: '#3b6cf6',
        600: '#2550d9',
        700: '#1d3fb0',
        800: '#1c358a',
        900: '#172554',
      },
      accent: { 400: '#fbbf24', 500: '#f59e0b', 600: '#b45309' },
      ink: { 900: '#0f172a', 700: '#334155', 600: '#475569', 500: '#64748b' },
    },
    fontFamily: {
      sans: "'Inter Variable', 'Noto Sans Arabic', system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif",
    },
  },
  shortcuts: {
    container: 'mx-auto w-full max-w-6xl px-4 sm:px-6',
    btn: 'inline-flex items-center justify-center gap-2 rounded-lg px-5 py-3 font-semibold text-base no-underline transition-colors',
    'btn-primary': 'btn bg-brand-600 text-white hover:bg-brand-700',
    'btn-accent': 'btn bg-accent-400 text-ink-900 hover:bg-accent-500',
    'btn-outline': 'btn border-2 border-current bg-transparent hover:bg-white/10',
    'btn-ghost': 'btn border border-slate-300 bg-white text-ink-900 hover:bg-slate-50',
    // what cannot be undone (erasing data, deleting an account)
    'btn-danger': 'btn bg-red-700 text-white hover:bg-red-800',
    card: 'rounded-2xl border border-slate-200 bg-white p-6 shadow-sm',
    // the navigation's links, some forty on every page: one class name instead of eleven
    'nav-link':
      'block whitespace-nowrap rounded-md px-2.5 py-2 text-sm font-medium text-ink-700 no-underline hover:bg-slate-100 hover:text-ink-900 aria-[current=page]:text-brand-700 aria-[current=page]:font-semibold',
    eyebrow: 'text-sm font-semibold uppercase tracking-wider text-brand-600',
    'section-title': 'text-3xl font-bold tracking-tight text-ink-900 sm:text-4xl',
  },
})
