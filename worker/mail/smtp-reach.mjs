// Plain JavaScript, so that the deploy's pre-flight (Node, scripts/lib/preflight.mjs) and the
// Worker's deploy status (worker/deploy-status.ts) judge an SMTP host by the same rule.

/** This machine, a private or link-local network (IPv4, IPv6), or "any address". */
const LOCAL_ADDRESS =
  /^\[?(127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|169\.254\.|0\.|::1\]?$|f[cd][0-9a-f]{2}:|fe80:)/i

/** A name only this machine or its network resolves. */
const LOCAL_NAME = /(^|\.)(localhost|local|internal|lan|home\.arpa)$/i

/** A host mail cannot reach from Cloudflare: none, or one of the above. */
export const unreachableHost = (host = '') =>
  host === '' || LOCAL_ADDRESS.test(host) || LOCAL_NAME.test(host)
