// A local mail catcher (maildev: an SMTP server with a web inbox and a REST API) that the site's
// SMTP provider delivers to in development and in the tests. Loopback only.
import { spawn } from 'node:child_process'
import { connect } from 'node:net'
import { freePort } from './server.mjs'

/**
 * Starts maildev on `smtpPort`/`webPort` (free ports when not given); resolves once its API
 * answers. `messages()` lists what arrived, newest last; `source(id)` is one message's raw MIME.
 */
export async function startMailCatcher({ smtpPort, webPort } = {}) {
  smtpPort ??= await freePort()
  webPort ??= await freePort()
  const child = spawn(
    'npx',
    [
      'maildev',
      '--smtp',
      String(smtpPort),
      '--web',
      String(webPort),
      '--ip',
      '127.0.0.1',
      '--web-ip',
      '127.0.0.1',
      '--silent',
    ],
    // detached: npx leaves maildev behind unless the whole process group is ended
    { detached: true, stdio: ['ignore', 'ignore', 'inherit'] },
  )
  const webURL = `http://127.0.0.1:${webPort}`
  const stop = () => {
    try {
      process.kill(-child.pid, 'SIGTERM')
    } catch {
      // already gone
    }
  }
  const messages = async () => (await fetch(`${webURL}/api/email`)).json()
  const source = async (id) => (await fetch(`${webURL}/api/email/${id}/source`)).text()
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    try {
      // both halves: maildev keeps its inbox up when the SMTP port cannot be had
      if ((await fetch(`${webURL}/api/email`)).ok && (await smtpGreets(smtpPort)))
        return { smtpPort, webPort, webURL, stop, messages, source }
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  stop()
  throw new Error(`maildev did not answer on ${webURL} and SMTP port ${smtpPort}`)
}

/** Whether an SMTP server greets on the port (its 220 line). */
function smtpGreets(port) {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    const done = (ok) => {
      socket.destroy()
      resolve(ok)
    }
    socket.setTimeout(2000, () => done(false))
    socket.once('data', (data) => done(data.toString().startsWith('220')))
    socket.once('error', () => done(false))
  })
}
