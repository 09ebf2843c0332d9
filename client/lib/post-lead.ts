export type LeadAnswer<T> =
  | { ok: true; data: T }
  | {
      ok: false
      status: number
      error?: string
      fields?: Record<string, string>
      body?: Record<string, unknown>
    }

/** Posts a lead form as JSON to the worker; a network failure reads as status 0. */
export async function postLead<T>(url: string, body: unknown): Promise<LeadAnswer<T>> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(body),
    })
    const json = (await res.json().catch(() => ({}))) as Record<string, unknown>
    if (res.ok) return { ok: true, data: json as T }
    return {
      ok: false,
      status: res.status,
      error: json.error as string | undefined,
      fields: json.fields as Record<string, string> | undefined,
      // the rest of the answer: a 409's fresh slots, say
      body: json,
    }
  } catch {
    return { ok: false, status: 0 }
  }
}
