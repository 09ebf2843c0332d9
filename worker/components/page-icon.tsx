import { IconSvg, ISLAND_PATHS } from '../../client/components/icon'
import type { ServiceIcon } from '../data/services'

/** The pages' icons beside the islands' (client/components/icon.tsx), drawn the same way. */
const PATHS: Record<ServiceIcon | UiIcon, string> = {
  ...ISLAND_PATHS,
  cart: 'M3 3h2l2.4 12.2a2 2 0 0 0 2 1.6h8.2a2 2 0 0 0 2-1.5L21 8H6 M9 21h.01 M18 21h.01',
  bag: 'M6 2 3 6v14a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2V6l-3-4Z M3 6h18 M16 10a4 4 0 0 1-8 0',
  store:
    'M3 9 4.5 4h15L21 9 M3 9v11h18V9 M3 9a3 3 0 0 0 6 0 3 3 0 0 0 6 0 3 3 0 0 0 6 0 M9 20v-5h6v5',
  megaphone:
    'M3 11v2a1 1 0 0 0 1 1h2l5 4V6L6 10H4a1 1 0 0 0-1 1Z M15 8a5 5 0 0 1 0 8 M18 5a9 9 0 0 1 0 14',
  mail: 'M4 4h16a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2Z M22 6l-10 7L2 6',
  link: 'M10 13a5 5 0 0 0 7.5.5l3-3a5 5 0 0 0-7-7l-1.7 1.7 M14 11a5 5 0 0 0-7.5-.5l-3 3a5 5 0 0 0 7 7l1.7-1.7',
  code: 'M16 18l6-6-6-6 M8 6l-6 6 6 6',
  rocket:
    'M4.5 16.5c-1.5 1.3-2 5-2 5s3.7-.5 5-2c.7-.8.7-2.1-.1-2.9a2.2 2.2 0 0 0-2.9-.1Z M12 15l-3-3a22 22 0 0 1 2-4A12.9 12.9 0 0 1 22 2c0 2.7-.8 7.5-6 11a22.4 22.4 0 0 1-4 2Z M9 12H4s.6-3 2-4c1.6-1.1 5 0 5 0 M12 15v5s3-.6 4-2c1.1-1.6 0-5 0-5',
  pen: 'M12 20h9 M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4Z',
  palette:
    'M12 2a10 10 0 0 0 0 20c1.1 0 2-.9 2-2 0-.5-.2-1-.5-1.3-.3-.4-.5-.8-.5-1.3 0-1.1.9-2 2-2h2.4A5.6 5.6 0 0 0 22 9.8C22 5.5 17.5 2 12 2Z M7.5 10.5h.01 M12 7.5h.01 M16.5 10.5h.01',
  pin: 'M20 10c0 6-8 12-8 12s-8-6-8-12a8 8 0 0 1 16 0Z M12 13a3 3 0 1 0 0-6 3 3 0 0 0 0 6Z',
  chevron: 'M6 9l6 6 6-6',
  menu: 'M4 6h16 M4 12h16 M4 18h16',
  globe:
    'M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20Z M2 12h20 M12 2a15 15 0 0 1 0 20 15 15 0 0 1 0-20',
  phone:
    'M22 16.9v3a2 2 0 0 1-2.2 2 19.8 19.8 0 0 1-8.6-3.1 19.5 19.5 0 0 1-6-6A19.8 19.8 0 0 1 2.1 4.2 2 2 0 0 1 4.1 2h3a2 2 0 0 1 2 1.7c.1 1 .4 1.9.7 2.8a2 2 0 0 1-.5 2.1L8 9.9a16 16 0 0 0 6 6l1.3-1.3a2 2 0 0 1 2.1-.4c.9.3 1.8.6 2.8.7a2 2 0 0 1 1.7 2Z',
  chat: 'M21 11.5a8.4 8.4 0 0 1-11.9 7.6L3 21l1.9-5.7A8.4 8.4 0 1 1 21 11.5Z',
  shield: 'M12 22s8-4 8-10V5l-8-3-8 3v7c0 6 8 10 8 10Z M9 12l2 2 4-4',
  lock: 'M5 11h14v11H5Z M8 11V7a4 4 0 0 1 8 0v4',
  badge: 'M12 15a7 7 0 1 0 0-14 7 7 0 0 0 0 14Z M8.2 13.9 7 23l5-3 5 3-1.2-9.1',
  refund: 'M3 12a9 9 0 1 0 3-6.7L3 8 M3 3v5h5 M12 7v5l3 2',
  chart: 'M3 3v18h18 M7 15l4-4 3 3 6-6',
  target:
    'M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20Z M12 18a6 6 0 1 0 0-12 6 6 0 0 0 0 12Z M12 14a2 2 0 1 0 0-4 2 2 0 0 0 0 4Z',
  quote: 'M3 21c3 0 7-1 7-8V5H3v7h4c0 4-2 5-4 5Z M14 21c3 0 7-1 7-8V5h-7v7h4c0 4-2 5-4 5Z',
  search: 'M11 19a8 8 0 1 0 0-16 8 8 0 0 0 0 16Z M21 21l-4.3-4.3',
}

export type UiIcon =
  | 'arrow'
  | 'arrow-back'
  | 'chevron'
  | 'check'
  | 'menu'
  | 'globe'
  | 'phone'
  | 'chat'
  | 'shield'
  | 'lock'
  | 'badge'
  | 'refund'
  | 'star'
  | 'chart'
  | 'target'
  | 'download'
  | 'quote'
  | 'search'

/** An icon a page draws on the server (an island's come from client/components/icon.tsx). */
export function Icon({
  name,
  ...rest
}: {
  name: ServiceIcon | UiIcon
  className?: string
  filled?: boolean
}) {
  return <IconSvg name={name} d={PATHS[name]} {...rest} />
}
