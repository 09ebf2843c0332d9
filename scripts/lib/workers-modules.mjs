// Module hooks for running the worker bundle in Node (the bench's render timings): the
// `cloudflare:*` modules the mail providers import exist only in workerd. Rendering a page
// never calls them, so they resolve to stand-ins that throw if anything ever does.
const STAND_IN = `
const missing = () => { throw new Error('cloudflare:* modules exist only in workerd') }
export class EmailMessage { constructor() { missing() } }
export const connect = missing
export default {}
`

export async function resolve(specifier, context, next) {
  if (specifier.startsWith('cloudflare:'))
    return {
      url: `data:text/javascript,${encodeURIComponent(STAND_IN)}`,
      shortCircuit: true,
    }
  return next(specifier, context)
}
