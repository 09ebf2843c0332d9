/**
 * A client address no other test file uses. The site's rate limits count per address and
 * minute, and the files that share a workerd (vitest.worker.config.ts) share those counts: a
 * file that numbered its visitors 1, 2, 3… met another file's visitors of that minute.
 */
let n = Math.floor(Math.random() * 2 ** 22)
export function freshIp() {
  n += 1
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`
}
