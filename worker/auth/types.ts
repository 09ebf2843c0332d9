/** The shapes of the auth provider's answers (Supabase Auth / GoTrue), as the site reads them. */

export interface Factor {
  id: string
  friendly_name?: string
  factor_type: string
  status: 'verified' | 'unverified'
}

export interface AuthUser {
  id: string
  email: string
  factors?: Factor[]
  app_metadata?: Record<string, unknown>
}

export interface TokenSet {
  access_token: string
  refresh_token: string
  expires_in: number
  user: AuthUser
}

export type AuthResult<T> =
  { ok: true; data: T } | { ok: false; status: number; code: string; msg: string }
