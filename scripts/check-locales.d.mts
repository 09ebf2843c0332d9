export function compare(
  en: unknown,
  other: unknown,
  lang: string,
  path?: string,
  problems?: string[],
): string[]
