export function freePort(): Promise<number>
export function reservePort(): Promise<{ port: number; release: () => Promise<unknown> }>
export function wranglerDev(options: {
  port: number | string
  persistTo: string
  vars?: Record<string, string | number>
}): string[]
export function run(
  cmd: string,
  args: string[],
  options?: { stdio?: import('node:child_process').StdioOptions },
): Promise<void>
export function migrate(persistTo: string): Promise<void>
export function startServer(options: {
  persistTo: string
  vars?: Record<string, string>
  background?: boolean
  port?: number
  migrated?: boolean
  quiet?: boolean
}): Promise<{ baseURL: string; stop: () => void }>
export const CHROMIUM_ARGS: string[]
export const CHROMIUM_PATH: string
export const TEST_BROWSER_PATH: string
export function answers(baseURL: string, ms?: number): Promise<boolean>
