import { spawn, execFileSync, type ChildProcess } from 'node:child_process'
import { rmSync } from 'node:fs'
import { createServer } from 'node:net'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string
  }
}

const STATE = '.wrangler/e2e-state'

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number }
      srv.close(() => resolve(port))
    })
    srv.on('error', reject)
  })
}

async function waitFor(url: string, ms: number) {
  const end = Date.now() + ms
  while (Date.now() < end) {
    try {
      if ((await fetch(url)).ok) return
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250))
  }
  throw new Error(`server at ${url} did not start in ${ms} ms`)
}

let server: ChildProcess | undefined

/** Builds the site, migrates a fresh local D1 and serves it as `npm start` does. */
export default async function setup(project: TestProject) {
  const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { stdio: 'inherit' })
  if (!process.env.E2E_SKIP_BUILD)
    run('npm', ['run', 'build', '--silent', '--', '--logLevel', 'warn'])
  rmSync(STATE, { recursive: true, force: true })
  run('npx', [
    'wrangler',
    'd1',
    'migrations',
    'apply',
    'DB',
    '--local',
    '--config',
    'wrangler.toml',
    '--persist-to',
    STATE,
  ])
  const port = await freePort()
  server = spawn(
    'npx',
    [
      'wrangler',
      'dev',
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      '--persist-to',
      STATE,
      '--log-level',
      'warn',
    ],
    {
      detached: true,
      stdio: 'inherit',
      env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false' },
    },
  )
  const baseURL = `http://127.0.0.1:${port}`
  await waitFor(baseURL + '/favicon.svg', 60_000)
  project.provide('baseURL', baseURL)
  return () => {
    // npx leaves wrangler and workerd behind unless the whole group goes.
    try {
      if (server?.pid) process.kill(-server.pid, 'SIGTERM')
    } catch {
      // already gone
    }
  }
}
