export function freePort(): Promise<number>
export function startServer(options: {
  persistTo: string
  vars?: Record<string, string>
  background?: boolean
}): Promise<{ baseURL: string; stop: () => void }>
export const CHROMIUM_ARGS: string[]
export const CHROMIUM_PATH: string
