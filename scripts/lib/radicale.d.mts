export const RADICALE_PATH: string
export const RADICALE_USER: { username: string; password: string }
export function startRadicale(options?: {
  port?: number
}): Promise<{ url: string; port: number; stop(): void } | null>
