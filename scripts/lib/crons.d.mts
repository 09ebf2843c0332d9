export function configuredCrons(build?: string): string[]
export const CRON_NAMES: Record<'frequent' | 'daily', string>
export function fireCron(
  baseURL: string,
  cron: string,
  at?: Date,
): Promise<{ ok: boolean; status: number; text: string }>
export function nextRun(cron: string, from: Date): Date
type Outcome = { ok: boolean; status: number; text: string }
export function startCrons(options: {
  baseURL: string
  crons?: string[]
  speed?: number
  onRun?: (cron: string, at: Date, outcome: Outcome) => void
}): { stop(): void; next(): { cron: string; at: Date }[] }
