import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/** Creates two linked transports: what one sends, the other receives. For tests and in-process servers. */
export function createInMemoryTransportPair(): [Transport, Transport] {
  return InMemoryTransport.createLinkedPair();
}
