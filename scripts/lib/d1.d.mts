type Options = { remote?: boolean; persistTo?: string }
export function queryD1<T = Record<string, unknown>>(sql: string, options?: Options): T[]
