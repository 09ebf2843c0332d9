import { describe, expect, it } from 'vitest'
import { isAllowedUrl } from '../../../worker/webhooks/address'

const production = { WEBHOOK_ALLOW_LOCAL: '', ENVIRONMENT: 'development' }
const local = { WEBHOOK_ALLOW_LOCAL: 'true', ENVIRONMENT: 'development' }

describe('only the internet (production settings)', () => {
  it.each([
    ['https://hooks.slack.com/services/T0/B0/x'],
    ['https://example.com:8443/hook?x=1'],
    ['https://8.8.8.8/hook'],
    ['https://[2606:4700:4700::1111]/hook'],
    ['https://100.128.0.1/'],
    ['https://172.32.0.1/'],
  ])('takes %s', (url) => {
    expect(isAllowedUrl(url, production)).toMatchObject({ ok: true })
  })

  it.each([
    ['http://example.com/hook', 'not_https'],
    ['ftp://example.com/', 'invalid'],
    ['not a url', 'invalid'],
    ['https://user:pass@example.com/', 'invalid'],
    ['https://localhost/hook', 'localhost'],
    ['https://LOCALHOST./hook', 'localhost'],
    ['https://api.localhost/hook', 'localhost'],
    ['https://localhost../hook', 'localhost'],
    // names only a private network resolves
    ['https://intranet/hook', 'private'],
    ['https://printer.local/hook', 'private'],
    ['https://crm.internal/hook', 'private'],
    ['https://nas.home.arpa/hook', 'private'],
    ['https://127.0.0.1/hook', 'private'],
    ['https://127.1.2.3/hook', 'private'],
    ['https://10.0.0.1/', 'private'],
    ['https://172.16.0.1/', 'private'],
    ['https://172.31.255.255/', 'private'],
    ['https://192.168.1.1/', 'private'],
    ['https://169.254.169.254/latest/meta-data/', 'private'],
    ['https://100.64.0.1/', 'private'],
    ['https://100.127.255.255/', 'private'],
    ['https://0.0.0.0/', 'private'],
    // the spellings the URL parser turns into 127.0.0.1
    ['https://2130706433/', 'private'],
    ['https://0x7f.1/', 'private'],
    ['https://0177.0.0.1/', 'private'],
    ['https://0x7f000001/', 'private'],
    ['https://[::1]/', 'private'],
    ['https://[::]/', 'private'],
    ['https://[::ffff:10.0.0.1]/', 'private'],
    ['https://[::ffff:127.0.0.1]/', 'private'],
    ['https://[::ffff:169.254.169.254]/', 'private'],
    ['https://[fe80::1]/', 'private'],
    ['https://[fc00::1]/', 'private'],
    ['https://[fd12:3456::1]/', 'private'],
    ['https://[64:ff9b::a00:1]/', 'private'],
  ])('refuses %s: %s', (url, reason) => {
    expect(isAllowedUrl(url, production)).toEqual({ ok: false, reason })
  })
})

describe('WEBHOOK_ALLOW_LOCAL (npm start, the tests)', () => {
  it.each([['http://127.0.0.1:8789/hook'], ['http://localhost:8789/hook'], ['https://[::1]/']])(
    'takes %s',
    (url) => {
      expect(isAllowedUrl(url, local)).toMatchObject({ ok: true })
    },
  )

  it.each([['http://10.0.0.1/'], ['http://169.254.169.254/'], ['http://192.168.0.10/']])(
    'still refuses %s',
    (url) => {
      expect(isAllowedUrl(url, local)).toEqual({ ok: false, reason: 'private' })
    },
  )
})

describe('the local setting', () => {
  it('is ignored in production, whatever it says', () => {
    const copied = { WEBHOOK_ALLOW_LOCAL: 'true', ENVIRONMENT: 'production' }
    expect(isAllowedUrl('http://127.0.0.1:8788/hook', copied)).toMatchObject({ ok: false })
    expect(isAllowedUrl('https://localhost/hook', copied)).toMatchObject({ ok: false })
    expect(isAllowedUrl('http://127.0.0.1:8788/hook', local)).toMatchObject({ ok: true })
  })
})
