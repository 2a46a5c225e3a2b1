/**
 * A linked pair of in-process transports (the SDK's `InMemoryTransport`), offered here so that tests
 * and in-process servers take every transport from one package.
 */
import { InMemoryTransport, type Transport } from '@modelcontextprotocol/client';

/**
 * Creates two linked transports: what one sends, the other receives. For tests and in-process
 * servers, in either era: the messages pass unchanged, the protocol layers on both ends decide.
 */
export function createInMemoryTransportPair(): [Transport, Transport] {
  return InMemoryTransport.createLinkedPair();
}
