import { readFileSync } from 'node:fs'
import semver from 'semver'
import { describe, expect, it } from 'vitest'

// The project runs on the Node of its `node` devDependency (node_modules/.bin/node, first on
// npm scripts' PATH), whatever Node runs npm itself. npm 11 checks engines against the latter
// only (.npmrc), so here every installed package is checked against the Node that runs it.

const pkg = JSON.parse(readFileSync('package.json', 'utf8'))
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'))

describe('the Node the project runs on', () => {
  it('is the Node of the node devDependency, within the engines package.json declares', () => {
    expect(process.version).toBe(`v${pkg.devDependencies.node}`)
    expect(semver.satisfies(process.version, pkg.engines.node)).toBe(true)
    // a version manager's file says the same major
    expect(readFileSync('.nvmrc', 'utf8').trim()).toBe(String(semver.major(process.version)))
  })

  it('is one every installed package declares it supports', () => {
    const unsupported = Object.entries(lock.packages as Record<string, LockEntry>)
      .filter(([path, entry]) => path && !entry.optional && typeof entry.engines?.node === 'string')
      .filter(([, entry]) => {
        const range = entry.engines!.node!
        return !semver.satisfies(process.version, range, { includePrerelease: true })
      })
      .map(
        ([path, entry]) =>
          `${path.replace(/^.*node_modules\//, '')} wants node ${entry.engines!.node}`,
      )
    expect(unsupported).toEqual([])
  })
})

interface LockEntry {
  optional?: boolean
  engines?: { node?: string }
}
