import { useSyncExternalStore } from 'react'

const noChanges = () => () => {}

/**
 * False in the server's markup and while hydrating, true once the island runs in the browser:
 * what works only with JavaScript appears only with it, without a hydration mismatch.
 */
export const useHydrated = () =>
  useSyncExternalStore(
    noChanges,
    () => true,
    () => false,
  )
