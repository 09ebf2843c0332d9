/**
 * Webhooks (docs/webhooks.md): what the desk's integrations page uses of the engine.
 */
export { isAllowedUrl, shownUrl } from './address'
export { EVENT_TYPES } from './events'
export { newSecret } from './sign'
export { replayDelivery, replayFailedSince, rotateSecret, sendTestEvent } from './queue'
