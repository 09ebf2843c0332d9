// Production alias of `mime-types` (vite.config.ts), for mimetext (mail/providers/cloudflare.ts).
// mimetext asks it one thing: whether an attachment's content type is valid, by contentType().
// For a full type ("text/calendar; charset=utf-8; method=REQUEST") that always answers yes (the
// type, a charset added), and only a bare extension ("ics") is looked up in mime-db: 180 KB of
// JSON, half a millisecond of every isolate's start-up to index. The site's attachments name
// their full type (mail/letter.ts), so the answer is the same without the database; a bare
// extension, which mimetext would have written as the header anyway, is refused.

export function contentType(type: string): string | false {
  return typeof type === 'string' && type.includes('/') ? type : false
}
