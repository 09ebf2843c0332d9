export const LOCAL_CALDAV_USER: { username: string; password: string }
export function localCalendarUrl(origin: string): string
export function startCalDavServer(options: { port: number; file: string }): Promise<{
  url: string
  username: string
  password: string
  stop(): void
}>
