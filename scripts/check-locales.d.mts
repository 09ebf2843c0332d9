export function compare(en: unknown, other: unknown, path?: string, problems?: string[]): string[]
