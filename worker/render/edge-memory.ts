import { encodeBase64 } from 'hono/utils/encode'
import { recordVisit } from '../analytics/record'
import { readConfig } from '../config'
import type { Bindings } from '../bindings'
import {
  isRefreshRequest,
  knownDeployId,
  readRequest,
  RENDER_HEADER,
  SOURCE_HEADER,
} from './cache-key'
import { databaseDown } from '../db/outage'
import { withNonceJoined, type Copy } from './nonce-slots'
import { freshGenerations, generationKey } from '../content/generations'
import type { ContentTag } from '../content/kinds'
import { variantsFromMemory } from '../experiments/page'

/**
 * The isolate's own copies of its busiest pages, in front of the Cache API (render/edge-cache.ts).
 * A copy here is answered before the app runs at all: no router, no middleware, no Response of
 * Hono's, only the key, this response's nonce and the headers the app gave the page the last
 * time it answered it (bench: a hit's CPU in workerd went from 1.1–1.6 ms to …). Kept for a
 * minute at most, so a purge reaches them soon after it reaches the data centre's cache, and a
 * few megabytes at most (an isolate has 128 MB), least recently used out first.
 */

const MEMORY_SECONDS = 60
const MEMORY_BYTES = 4 * 1024 * 1024
const memory = new Map<string, Copy>()
let memoryBytes = 0

const weight = (copy: Copy) => copy.page.byteLength

export function remember(key: string, copy: Copy) {
  forget(key)
  memory.set(key, copy)
  memoryBytes += weight(copy)
  for (const [oldest, old] of memory) {
    if (memoryBytes <= MEMORY_BYTES) break
    memory.delete(oldest)
    memoryBytes -= weight(old)
    answers.delete(oldest)
  }
}

export function forget(key: string) {
  const old = memory.get(key)
  if (!old) return
  memory.delete(key)
  memoryBytes -= weight(old)
}

/**
 * The isolate's copy of a page while fresh. `stale`: at any age, for stale-if-error (D1 not
 * answering, render/edge-cache.ts); an old copy stays for that until newer ones push it out.
 */
export function recalled(key: string, { stale = false } = {}): Copy | undefined {
  const copy = memory.get(key)
  if (!copy) return undefined
  if (!stale && Date.now() - copy.storedAt > MEMORY_SECONDS * 1000) return undefined
  remember(key, copy) // most recently used now
  return copy
}

/**
 * What the app answered with a page besides its body, per key: its headers with the nonce cut
 * out of the Content-Security-Policy, the same for every visitor of the key (a response that
 * sets a cookie is never kept). Only what a hit or miss of the app left here can be answered
 * before the app.
 */
interface Answer {
  headers: Headers
  /** The policy cut at its nonce. */
  policy: string[]
}
const answers = new Map<string, Answer>()

/**
 * The pages' query parameters that key them (routes.ts), learned from the app's answers; at
 * most MAX_PAGES pages (one per page URL, origins apart), all forgotten at once beyond that.
 */
const MAX_PAGES = 2000
const queryNames = new Map<string, { query: readonly string[]; shows: readonly ContentTag[] }>()

/** What the edge cache's middleware hands the app's outermost layer, per request. */
interface Pending {
  key: string
  page: string
  query: readonly string[]
  shows: readonly ContentTag[]
  nonce: string
}
const pending = new WeakMap<Request, Pending>()

/** Called by the cache's middleware on a hit or a miss: the answer is kept once complete. */
export const willAnswer = (request: Request, p: Pending) => void pending.set(request, p)

const POLICY = 'content-security-policy'
const PER_RESPONSE = new Set([
  POLICY,
  RENDER_HEADER,
  SOURCE_HEADER,
  'age',
  'content-length',
  'set-cookie',
])

/** After the app: keeps a cacheable page's final headers, for answers before the app. */
export function keepAnswer(request: Request, res: Response) {
  const p = pending.get(request)
  if (!p || res.status !== 200 || res.headers.has('Set-Cookie') || res.headers.has(SOURCE_HEADER))
    return
  const policy = res.headers.get(POLICY)
  if (!policy || !p.nonce || !policy.includes(p.nonce)) return
  const headers = new Headers(res.headers)
  for (const name of PER_RESPONSE) headers.delete(name)
  // bounded like the copies: whatever the copies dropped goes (not this one: its copy is
  // stored once its body has streamed)
  if (answers.size > 4 * memory.size + 64)
    for (const key of answers.keys()) if (!memory.has(key)) answers.delete(key)
  answers.set(p.key, { headers, policy: policy.split(p.nonce) })
  // the fast answer leaves escaped paths to the app (every spelling of a page would be an entry)
  if (p.page.includes('%')) return
  if (queryNames.size >= MAX_PAGES) queryNames.clear()
  queryNames.set(p.page, { query: p.query, shows: p.shows })
}

/**
 * A page from this isolate's memory without the app, or undefined for the app to answer: the
 * same key, headers and bytes (with a nonce of its own) the app would send, and the visit
 * counted. Anything out of the ordinary goes to the app: another method, a body, a cookie of
 * someone's own, `?lang=` (it sets a cookie), a refresh, a page or a deploy not yet seen here,
 * D1 not answering.
 */
export function answerFromMemory(
  request: Request,
  env: Bindings,
  ctx: ExecutionContext,
): Response | undefined {
  if (request.method !== 'GET' || request.body || memory.size === 0 || isRefreshRequest(request))
    return undefined
  // D1 not answering: the app serves the copies, saying they are stale
  if (databaseDown()) return undefined
  const { page, param, personal, lang, key: keyFor, cookies, consent } = readRequest(request)
  const known = queryNames.get(page)
  const path = page.slice(page.indexOf('/', page.indexOf('//') + 2))
  // (an escaped path is counted as the app decodes it: the app answers it)
  if (!known || path.includes('%') || param('lang') !== undefined) return undefined
  if (personal) return undefined
  const deploy = knownDeployId(readConfig(env, request.url))
  if (!deploy) return undefined
  // the content's generations as lately read (else the app reads them again)
  const generations = known.shows.length ? freshGenerations() : {}
  if (!generations) return undefined
  // the experiments' variants, where the memory can tell them without a cookie to set
  const variants = variantsFromMemory(request, path, lang, cookies, consent)
  if (variants === undefined) return undefined
  const key = keyFor(deploy, known.query, generationKey(generations, known.shows), variants)
  const answer = answers.get(key)
  const copy = answer && recalled(key)
  if (!answer || !copy) return undefined

  const nonce = encodeBase64(crypto.getRandomValues(new Uint8Array(16)).buffer)
  const headers = new Headers(answer.headers)
  headers.set(POLICY, answer.policy.join(nonce))
  headers.set(RENDER_HEADER, 'hit')
  headers.set('Age', String(Math.floor((Date.now() - copy.storedAt) / 1000)))
  recordVisit(
    { request, env, lang, signedIn: false, waitUntil: (p) => ctx.waitUntil(p) },
    { event: 'pageview', path, status: 200, renderMs: 0 },
  )
  return new Response(withNonceJoined(copy, nonce), { headers })
}
