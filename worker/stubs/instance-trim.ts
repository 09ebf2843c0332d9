// Production alias of `@babel/runtime-corejs3/core-js/instance/trim` (vite.config.ts), the one
// helper mimetext's build takes from Babel's runtime: `trim(s).call(s)` for `s.trim()`, through
// core-js's polyfill of String.prototype.trim (32 KB). workerd has trim itself, so the helper
// hands back the string's own method, as core-js does wherever the method is native.

export default function trim(it: string): () => string {
  return it.trim
}
