/** The shapes of the auth provider's answers (Supabase Auth / GoTrue), as the site reads them. */

export interface Factor {
  id: string
  friendly_name?: string
  factor_type: string
  status: 'verified' | 'unverified'
  created_at?: string
}

export interface AuthUser {
  id: string
  email: string
  factors?: Factor[]
  app_metadata?: Record<string, unknown>
  user_metadata?: Record<string, unknown>
  created_at?: string
  email_confirmed_at?: string | null
  /** an address change waiting for its e-mailed links (GoTrue's new_email) */
  new_email?: string
  last_sign_in_at?: string | null
}

/** What the site reads of a verified access token (Supabase's claims). */
export interface AccessClaims {
  sub: string
  email?: string
  exp?: number
  session_id?: string
  /** aal1, or aal2 after a second factor */
  aal?: string
  app_metadata?: { role?: unknown }
}

export interface TokenSet {
  access_token: string
  refresh_token: string
  expires_in: number
  user: AuthUser
}

export type AuthResult<T> =
  | { ok: true; data: T }
  | { ok: false; status: number; code: string; msg: string }
