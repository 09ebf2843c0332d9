import { renderToReadableStream } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { defineIsland, IslandHtmlContext } from '../../client/island'
import { islandHtml } from '../../worker/render/island-html'

let calls = 0
function Probe({ n, label }: { n: number; label: string }) {
  calls++
  return (
    <form aria-label={label}>
      <p>
        {label} {n}
      </p>
      <button type="submit">{n}</button>
    </form>
  )
}
const ProbeIsland = defineIsland('probe', Probe)

const html = async (node: React.ReactNode) =>
  new Response(await renderToReadableStream(node)).text()

describe("an island's HTML on a page every visitor shares", () => {
  it('is rendered once per props, then pasted: the same HTML as a render of its own', async () => {
    const plain = await html(<ProbeIsland n={1} label="Sign up & go" />)
    expect(plain).toContain('data-island="probe"')
    const work: Promise<void>[] = []
    const memo = islandHtml((w) => work.push(w))
    const page = (n: number) => (
      <IslandHtmlContext.Provider value={memo}>
        <main>
          <ProbeIsland n={n} label="Sign up & go" />
        </main>
      </IslandHtmlContext.Provider>
    )
    calls = 0
    const first = await html(page(1))
    await Promise.all(work)
    // rendered with the page, and once on the side
    expect(calls).toBe(2)
    const pasted = await html(page(1))
    expect(calls).toBe(2)
    expect(pasted).toBe(first)
    expect(pasted).toBe(`<main>${plain}</main>`)
    // other props: another render
    const other = await html(page(2))
    expect(calls).toBe(4)
    expect(other).toContain('<button type="submit">2</button>')
  })

  it('is rendered as part of the page where no memory is given (a visitor of their own)', async () => {
    calls = 0
    const own = (
      <IslandHtmlContext.Provider value={null}>
        <ProbeIsland n={3} label="x" />
      </IslandHtmlContext.Provider>
    )
    await html(own)
    await html(own)
    expect(calls).toBe(2)
  })
})
