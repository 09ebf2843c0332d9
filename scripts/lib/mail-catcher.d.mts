export interface CaughtMail {
  id: string
  subject: string
  to: { address: string; name: string }[]
  from: { address: string; name: string }[]
  html: string
  text: string
  headers: Record<string, string>
  attachments?: { filename: string; contentType: string; generatedFileName: string }[]
}
export interface MailCatcher {
  smtpPort: number
  webPort: number
  webURL: string
  stop(): void
  messages(): Promise<CaughtMail[]>
  source(id: string): Promise<string>
}
export function startMailCatcher(ports?: {
  smtpPort?: number
  webPort?: number
}): Promise<MailCatcher>
