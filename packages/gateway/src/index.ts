/**
 * Public API of @switchboard/gateway: many MCP servers served as one. Any new export added here
 * becomes public API: use named exports, not wildcards.
 */

export type { Gateway, GatewayClients, GatewayOptions, GatewayToolSelector } from './gateway.js';
export { createGateway } from './gateway.js';
export type { GatewayUpstreamClient } from './gateway-catalog.js';
export { gatewayConnectOptions } from './gateway-connect-options.js';
export type { GatewayWebhookOptions } from './gateway-webhooks.js';
