// Production alias of `postcss` (vite.config.ts). sanitize-html requires postcss only to parse
// style attributes, and both of the site's passes turn that off (parseStyleAttributes: false in
// content/markdown.ts and mail/body.ts): postcss and its source maps (some 200 KB) stay out of
// the Worker. Should a pass parse styles again, this throws, sanitize-html drops that
// attribute, and the newsletter test of inline styles fails.

export function parse(): never {
  throw new Error('postcss is not bundled into the Worker (worker/stubs/postcss.ts)')
}
