/**
 * Stroke icons (24×24, Lucide-style paths), each drawn as one <path> whose subpaths are the
 * " M" parts. Decorative: the text next to them names them. Here only the islands' own: the
 * pages' many more are the server's (worker/components/page-icon.tsx), and an island's chunk carries
 * none of them.
 */
export const ISLAND_PATHS = {
  calendar:
    'M8 2v4 M16 2v4 M3 10h18 M5 4h14a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2Z',
  arrow: 'M5 12h14 M13 6l6 6-6 6',
  'arrow-back': 'M19 12H5 M11 18l-6-6 6-6',
  check: 'M20 6 9 17l-5-5',
  // relative after its start, so that Stars can draw it anywhere by moving the M
  star: 'M12 2l3.1 6.3 6.9 1-5 4.9 1.2 6.8-6.2-3.2-6.2 3.2 1.2-6.8-5-4.9 6.9-1Z',
  download: 'M21 15v4a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-4 M7 10l5 5 5-5 M12 15V3',
}
export type IslandIcon = keyof typeof ISLAND_PATHS

/** Direction-bearing icons flip in right-to-left pages. */
const MIRRORED = new Set(['arrow', 'arrow-back'])

/**
 * One icon's SVG, drawn with currentColor, 2 wide with round ends and joins: the `.icon` rule
 * of base.css (`.icon-filled` fills them too), not five attributes on each of the page's sixty
 * icons.
 */
export function IconSvg({
  name,
  d,
  className = 'h-5 w-5',
  filled = false,
}: {
  name: string
  d: string
  className?: string
  filled?: boolean
}) {
  const mirror = MIRRORED.has(name) ? ' rtl:-scale-x-100' : ''
  return (
    <svg
      viewBox="0 0 24 24"
      aria-hidden="true"
      focusable="false"
      className={`${filled ? 'icon icon-filled' : 'icon'} ${className}${mirror}`}
    >
      <path d={d} />
    </svg>
  )
}

/** An icon the islands draw. */
export function Icon({
  name,
  ...rest
}: {
  name: IslandIcon
  className?: string
  filled?: boolean
}) {
  return <IconSvg name={name} d={ISLAND_PATHS[name]} {...rest} />
}

/** The star five times, 26 apart, as one path. */
const FIVE_STARS = [0, 26, 52, 78, 104]
  .map((x) => ISLAND_PATHS.star.replace(/^M12 /, `M${12 + x} `))
  .join(' ')

/** A five-star rating drawn as one SVG (a testimonial grid would otherwise draw 40 of them). */
export function Stars({ className = 'h-4 w-auto' }: { className?: string }) {
  return (
    <svg
      viewBox="0 0 128 24"
      aria-hidden="true"
      focusable="false"
      className={`icon icon-filled ${className}`}
    >
      <path d={FIVE_STARS} />
    </svg>
  )
}
