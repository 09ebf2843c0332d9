import type { Agent } from 'node:http'
export function keepAlive(): Agent
export function send(
  base: string,
  options: {
    method?: string
    path: string
    headers?: Record<string, string>
    body?: string
    chunked?: boolean
    agent?: Agent
  },
): Promise<{ status: number | string; type?: string; text?: string }>
