// Radicale (a Debian package: `apt-get install radicale`), a second, independent CalDAV server
// the tests write to and read from, so the calendar sync is not tuned to one implementation.
// Loopback only, one user (agency / agency-password, htpasswd plain), state in a temp folder.
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from './server.mjs'

export const RADICALE_PATH = '/usr/bin/radicale'
export const RADICALE_USER = { username: 'agency', password: 'agency-password' }

/** Starts Radicale on `port`; resolves once it answers. Null when it is not installed. */
export async function startRadicale({ port } = {}) {
  if (!existsSync(RADICALE_PATH)) return null
  port ??= await freePort()
  const dir = mkdtempSync(join(tmpdir(), 'radicale-'))
  writeFileSync(join(dir, 'users'), `${RADICALE_USER.username}:${RADICALE_USER.password}\n`)
  writeFileSync(
    join(dir, 'config'),
    [
      '[server]',
      `hosts = 127.0.0.1:${port}`,
      '[auth]',
      'type = htpasswd',
      `htpasswd_filename = ${join(dir, 'users')}`,
      'htpasswd_encryption = plain',
      '[storage]',
      `filesystem_folder = ${join(dir, 'collections')}`,
      '[logging]',
      'level = warning',
    ].join('\n'),
  )
  const child = spawn(RADICALE_PATH, ['--config', join(dir, 'config')], {
    detached: true,
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const url = `http://127.0.0.1:${port}/`
  const stop = () => {
    try {
      process.kill(-child.pid, 'SIGTERM')
    } catch {
      // already gone
    }
    rmSync(dir, { recursive: true, force: true })
  }
  const deadline = Date.now() + 20_000
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).status < 500) return { url, port, stop }
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  stop()
  throw new Error(`Radicale did not answer on ${url}`)
}
