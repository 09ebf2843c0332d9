export function unreachableHost(host?: string): boolean
