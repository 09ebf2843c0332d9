// Miniflare 5 takes its Workers as `workers: [...]` only; the bench and the render profile
// describe one Worker with miniflare 4's top-level options, which miniflare 5 converts itself.
import { Miniflare as Miniflare5, convertV4MiniflareOptions } from 'miniflare'

export class Miniflare extends Miniflare5 {
  constructor(options) {
    super(convertV4MiniflareOptions(options))
  }
}
