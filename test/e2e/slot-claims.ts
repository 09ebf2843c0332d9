import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Locator } from 'playwright-core'
import { CLAIMS_DIR } from '../setup/server'

const STEP = 30 * 60_000

/** The claim's file of one time, a name a file system takes ("2026-12-08T09:30:00.000Z" has colons). */
const claimFile = (ms: number) => join(CLAIMS_DIR, String(ms))

function claim(ms: number) {
  try {
    writeFileSync(claimFile(ms), '', { flag: 'wx' })
    return true
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw err
  }
}

/**
 * Claims a time for one test to book (or for the agency's meeting it puts in the calendar): the
 * first of `candidates` (in a random order with `random`) whose `minutes` from its start no other
 * test claimed, so no two tests anywhere in the run book or block one time. Every test that books
 * on the main server claims its time here, including the ones chosen by place in a list: a test
 * that does not is one another can collide with.
 */
export function claimSlot(
  candidates: readonly string[],
  { minutes = 30, random = false }: { minutes?: number; random?: boolean } = {},
): string {
  mkdirSync(CLAIMS_DIR, { recursive: true })
  const from = random ? Math.floor(Math.random() * candidates.length) : 0
  const order = [...candidates.slice(from), ...candidates.slice(0, from)]
  for (const slot of order) {
    const start = Date.parse(slot)
    const times = Array.from(
      { length: Math.ceil((minutes * 60_000) / STEP) },
      (_, i) => start + i * STEP,
    )
    const held: number[] = []
    for (const ms of times) {
      if (!claim(ms)) break
      held.push(ms)
    }
    if (held.length === times.length) return slot
    // part of it is another test's: give back what this one took, try the next
    for (const ms of held) rmSync(claimFile(ms), { force: true })
  }
  throw new Error(`no time left to claim among ${candidates.length} candidates`)
}

/** The times a list of radios offers, in its order. */
export const radioValues = (radios: Locator) =>
  radios.evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value))
