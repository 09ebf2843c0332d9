import { Hono, type Context } from 'hono'
import { decodeJwt } from 'jose'
import * as v from 'valibot'
import type { AppEnv } from '../env'
import { authenticate, authError } from './gotrue'
import { autoconfirm } from './settings'

/**
 * What the built-in service offers and what it answers "disabled" to. Each switched-off feature
 * answers as a GoTrue server with that feature switched off does (supabase/auth:
 * internal/api/api.go, middleware.go, signup.go, token_oidc.go, web3.go, mfa.go), so
 * @supabase/supabase-js reports it with GoTrue's status, code and message.
 */
export const featureRoutes = new Hono<AppEnv>()

/** OAuth providers GoTrue knows (internal/api/provider_constants.go); none is enabled here. */
const OAUTH_PROVIDERS = [
  'apple',
  'azure',
  'bitbucket',
  'discord',
  'facebook',
  'figma',
  'fly',
  'github',
  'gitlab',
  'google',
  'kakao',
  'keycloak',
  'linkedin',
  'linkedin_oidc',
  'notion',
  'slack',
  'slack_oidc',
  'snapchat',
  'spotify',
  'twitch',
  'twitter',
  'vercel_marketplace',
  'workos',
  'x',
  'zoom',
] as const

featureRoutes.get('/health', (c) =>
  c.json({
    version: 'built-in',
    name: 'GoTrue',
    description: 'GoTrue is a user registration and authentication API',
  }),
)

/** GoTrue's /settings (internal/api/settings.go): e-mail sign-in only. */
featureRoutes.get('/settings', (c) =>
  c.json({
    external: {
      anonymous_users: false,
      ...Object.fromEntries(
        OAUTH_PROVIDERS.filter((p) => p !== 'x' && p !== 'vercel_marketplace').map((p) => [
          p,
          false,
        ]),
      ),
      email: true,
      phone: false,
    },
    disable_signup: false,
    mailer_autoconfirm: autoconfirm(c.env),
    phone_autoconfirm: false,
    sms_provider: '',
    saml_enabled: false,
    saml_private_key_next_configured: false,
    passkeys_enabled: false,
  }),
)

/** SAML single sign-on (requireSAMLEnabled). */
const samlDisabled = (c: Context<AppEnv>) =>
  authError(c, 404, 'saml_provider_disabled', 'SAML 2.0 is disabled')
featureRoutes.all('/sso', samlDisabled)
featureRoutes.all('/sso/*', samlDisabled)

/** Passkey sign-in (requirePasskeyEnabled). */
const passkeysDisabled = (c: Context<AppEnv>) =>
  authError(c, 404, 'passkey_disabled', 'Passkeys are disabled')
featureRoutes.all('/passkeys', passkeysDisabled)
featureRoutes.all('/passkeys/*', passkeysDisabled)

/** Linking and unlinking identities: signed-in users only, then off (requireManualLinkingEnabled). */
featureRoutes.all('/user/identities/*', async (c) => {
  const claims = await authenticate(c)
  if (claims instanceof Response) return claims
  return authError(c, 404, 'manual_linking_disabled', 'Manual linking is disabled')
})

/** The OAuth 2.1 server (requireOAuthServerEnabled). */
featureRoutes.all('/oauth/*', (c) =>
  authError(c, 404, 'feature_disabled', 'OAuth server is disabled'),
)

/** Sign-in with an OAuth provider: none is enabled (GetExternalProviderRedirectURL). */
featureRoutes.get('/authorize', (c) => {
  const provider = (c.req.query('provider') ?? '').toLowerCase()
  return authError(
    c,
    400,
    'validation_failed',
    `Unsupported provider: ${
      (OAUTH_PROVIDERS as readonly string[]).includes(provider)
        ? 'provider is not enabled'
        : provider.startsWith('custom:')
          ? 'custom OAuth providers are disabled'
          : `Provider ${provider} could not be found`
    }`,
  )
})

/** The admin API beyond deleting a user (admin.ts) is not built in. */
const noAdminApi = (c: Context<AppEnv>) =>
  authError(c, 404, 'not_found', 'The built-in auth service has no such admin API')
featureRoutes.all('/admin', noAdminApi)
featureRoutes.all('/admin/*', noAdminApi)
featureRoutes.all('/invite', noAdminApi)

/** Anything else under /auth/v1: a JSON 404, never the site's page (chi's words). */
export const notFound = (c: Context<AppEnv>) => authError(c, 404, 'not_found', '404 page not found')

/** An OAuth-style error, as GoTrue answers the ID-token grant's malformed requests. */
const oauthError = (c: Context<AppEnv>, description: string) =>
  c.json({ error: 'invalid request', error_description: description }, 400)

const IdTokenSchema = v.object({
  id_token: v.nullish(v.string(), ''),
  provider: v.nullish(v.string(), ''),
  client_id: v.nullish(v.string(), ''),
  issuer: v.nullish(v.string(), ''),
  link_identity: v.nullish(v.boolean(), false),
})

/** Issuers of the providers GoTrue takes ID tokens from (internal/api/provider). */
const ID_TOKEN_ISSUERS: Record<string, string> = {
  google: 'https://accounts.google.com',
  facebook: 'https://www.facebook.com',
  kakao: 'https://kauth.kakao.com',
  snapchat: 'https://accounts.snapchat.com/accounts/oauth2/token',
  vercel_marketplace: 'https://marketplace.vercel.com',
  keycloak: '',
}

/** The issuer an Apple or Azure ID token names, or null when it cannot be read. */
function tokenIssuer(idToken: string) {
  try {
    const iss = decodeJwt(idToken).iss
    return typeof iss === 'string' ? iss : null
  } catch {
    return null
  }
}

/**
 * POST /token?grant_type=id_token (signInWithIdToken, linkIdentity with an ID token): no
 * provider is enabled, so every provider GoTrue knows answers `provider_disabled`
 * (IdTokenGrant, getProvider).
 */
export async function idTokenGrant(c: Context<AppEnv>) {
  const input = v.safeParse(IdTokenSchema, await c.req.json().catch(() => undefined))
  if (!input.success) return authError(c, 400, 'bad_json', 'Could not parse request body as JSON')
  const { id_token: idToken, provider, client_id: clientId, issuer, link_identity } = input.output
  if (!idToken) return oauthError(c, 'id_token required')
  if (!provider && (!clientId || !issuer))
    return oauthError(c, 'provider or client_id and issuer required')
  if (link_identity) {
    if (!c.req.header('Authorization'))
      return oauthError(c, 'Linking requires a valid user access token in Authorization')
    const claims = await authenticate(c)
    if (claims instanceof Response) return claims
  }
  const disabled = (iss: string) =>
    authError(
      c,
      400,
      'provider_disabled',
      `Provider (issuer ${JSON.stringify(iss)}) is not enabled`,
    )
  for (const [name, label, prefixes] of [
    ['apple', 'Apple', ['https://appleid.apple.com', 'https://account.apple.com']],
    ['azure', 'Azure', ['https://login.microsoftonline.com/', 'https://sts.windows.net/']],
  ] as const) {
    const named = provider === name || prefixes.some((p) => issuer.startsWith(p))
    if (!named) continue
    const detected = tokenIssuer(idToken)
    if (detected === null)
      return authError(
        c,
        400,
        'validation_failed',
        `Unable to detect issuer in ID token for ${label} provider`,
      )
    if (!prefixes.some((p) => detected.startsWith(p)))
      return authError(
        c,
        400,
        'validation_failed',
        `Detected ID token issuer is not an ${label} ID token issuer`,
      )
    if (issuer && issuer !== detected)
      return authError(
        c,
        400,
        'validation_failed',
        'Provided issuer does not match ID token issuer',
      )
    return disabled(detected)
  }
  for (const [name, iss] of Object.entries(ID_TOKEN_ISSUERS))
    if (provider === name || (iss && issuer === iss)) return disabled(iss)
  if (provider.startsWith('custom:'))
    return authError(c, 400, 'validation_failed', 'Custom OAuth providers are disabled')
  return authError(
    c,
    400,
    'validation_failed',
    `Custom OIDC provider ${JSON.stringify(provider)} not allowed`,
  )
}

/** POST /token?grant_type=web3 (signInWithWeb3): off (web3.go). */
export const web3Grant = (c: Context<AppEnv>) =>
  authError(c, 422, 'web3_provider_disabled', 'Web3 provider is disabled')
