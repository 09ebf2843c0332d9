/**
 * Whether D1 is answering, as this isolate last found it: the edge cache serves its copies
 * past their freshness while it is not (render/edge-cache.ts), the pages read the content's
 * snapshot (content/live.ts) and the desk refuses edits (desk/content.tsx). A failure is
 * believed for DOWN_MS, so a database that came back is asked again soon.
 */
const DOWN_MS = 10_000
let failedAt = 0

export const noteDatabaseFailure = () => void (failedAt = Date.now())
export const noteDatabaseAnswer = () => void (failedAt = 0)
export const databaseDown = () => failedAt !== 0 && Date.now() - failedAt < DOWN_MS

/**
 * An error of D1 itself (D1 throws `D1_ERROR: …`, `D1_EXEC_ERROR: …`; a lost connection or an
 * overloaded database says so), as opposed to a bug of ours: answered 503 with Retry-After.
 */
export const isDatabaseError = (err: unknown) =>
  err instanceof Error &&
  /^D1_|\bD1\b|Network connection lost|overloaded|storage (operation|caused)/i.test(err.message)
