// `npm run purge`: drops the edge's stored copies of anonymous pages (worker/render/edge-cache.ts).
// A deploy never needs it: every copy carries the build and Worker version that rendered it.
// It is for the rare page that must change before its five minutes of freshness are up.
//
//   npm run purge -- --remote   Cloudflare's purge by cache tag (every data centre), for the zone
//                               the site is served on: CLOUDFLARE_ZONE_ID and CLOUDFLARE_API_TOKEN
//                               (a token with the zone's Cache Purge permission) in the shell.
//   npm run purge               the local copies `npm start` keeps in .wrangler/state.
import { existsSync, rmSync } from 'node:fs'

const TAG = 'site-pages' // CACHE_TAG in worker/render/edge-cache.ts

if (process.argv.includes('--remote')) {
  const zone = process.env.CLOUDFLARE_ZONE_ID
  const token = process.env.CLOUDFLARE_API_TOKEN
  if (!zone || !token) {
    console.error(
      'Set CLOUDFLARE_ZONE_ID and CLOUDFLARE_API_TOKEN (Zone > Cache Purge) to purge the edge.',
    )
    process.exit(2)
  }
  const res = await fetch(`https://api.cloudflare.com/client/v4/zones/${zone}/purge_cache`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ tags: [TAG] }),
  })
  const answer = await res.json().catch(() => ({}))
  if (!res.ok || !answer.success) {
    console.error(`Purge refused (${res.status}):`, JSON.stringify(answer.errors ?? answer))
    process.exit(1)
  }
  console.log(`Purged every page tagged ${TAG} in every data centre.`)
} else {
  const dir = '.wrangler/state/v3/cache'
  if (existsSync(dir)) rmSync(dir, { recursive: true, force: true })
  console.log(
    `Local page cache removed (${dir}). A running \`npm start\` keeps what it holds in memory until it restarts; a restart builds anew, and a new build never serves an older page.`,
  )
}
