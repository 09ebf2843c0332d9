import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { withToken } from '../challenge'
import { freshMinute } from '../clock'
import { randomIp } from '../random-ip'

// Each guard belongs to the routes that need it: reading slots or sending conversion events
// spends nothing of a visitor's lead limit (10 a minute), and a booking counts once.

const from = (ip: string, path: string, init: RequestInit = {}) =>
  SELF.fetch(`https://example.com${path}`, {
    ...init,
    headers: { 'Content-Type': 'application/json', 'CF-Connecting-IP': ip, ...init.headers },
  })

const signup = (ip: string) =>
  from(ip, '/api/email-signup', {
    method: 'POST',
    body: JSON.stringify(
      withToken({
        name: 'Ada',
        email: `guard${crypto.randomUUID().slice(0, 8)}@example.org`,
        source: 'website',
      }),
    ),
  })

describe('guards attach to their routes', () => {
  it('lets a lead through after 20 conversion events and 20 slot reads', async () => {
    const ip = randomIp()
    for (let i = 0; i < 20; i++) {
      const event = await from(ip, '/api/events', {
        method: 'POST',
        body: JSON.stringify({ name: 'booking_opened', path: '/' }),
      })
      expect(event.status).toBe(204)
      const slots = await from(ip, '/api/bookings/slots')
      expect(slots.status).toBe(200)
      await slots.body?.cancel()
    }
    expect((await signup(ip)).status).toBe(200)
  })

  // up to 10 s more: the wait for a fresh minute (clock.ts)
  it('counts a booking once against the lead limit', { timeout: 60_000 }, async () => {
    const ip = randomIp()
    await freshMinute()
    const { slots } = (await (await from(ip, '/api/bookings/slots')).json()) as {
      slots: string[]
    }
    const booked = await from(ip, '/api/bookings', {
      method: 'POST',
      body: JSON.stringify(
        withToken({
          slot: slots[slots.length - 1],
          name: 'Ada',
          email: 'guard-booking@example.org',
          timeZone: 'Europe/London',
        }),
      ),
    })
    expect(booked.status).toBe(200)
    // one booking spent one of ten: nine more leads pass, the tenth after it is refused
    const statuses: number[] = []
    for (let i = 0; i < 10; i++) statuses.push((await signup(ip)).status)
    expect(statuses).toEqual([...Array(9).fill(200), 429])
  })
})
