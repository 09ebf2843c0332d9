/**
 * Webhooks (docs/webhooks.md): what the desk's integrations page uses of the engine.
 */
export { isAllowedUrl, type AddressCheck } from './address'
export { EVENT_TYPES, TEST_EVENT, type EventType } from './events'
export { newSecret } from './sign'
export {
  queueDeliveries,
  replayDelivery,
  replayFailedSince,
  rotateSecret,
  sendTestEvent,
} from './queue'
