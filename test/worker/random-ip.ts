/**
 * A client address of its own (IPv6, a /64 of its own): the site's limits count per address
 * (an IPv6 address by its /64, worker/middleware/client-key.ts), and the test files that share a
 * workerd (vitest.worker.config.ts) share those counts, so a test that is not about a limit, or
 * one that floods it, comes from somewhere no other test does.
 */
export const randomIp = () => {
  const [a = 0, b = 0] = crypto.getRandomValues(new Uint16Array(2))
  return `2001:db8:${a.toString(16)}:${b.toString(16)}::1`
}
