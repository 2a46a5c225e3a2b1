/**
 * One-exchange sessions of 2025 stateless HTTP requests. Without a session a tool can still ask
 * the client (elicitation, sampling, roots): the request goes out on the call's SSE stream, and the
 * client POSTs its answer to the endpoint, where it is routed by id to the exchange still waiting.
 * Ids are unique per process; with a replica id they name the replica, so an answer POSTed to
 * another replica is forwarded here over the cluster state (see `cluster-wiring.ts`).
 */
import type { LegacySession, SessionOutlet } from '../session/legacy-session.js';
import { LegacySession as Session } from '../session/legacy-session.js';

/** The open exchange sessions of one HTTP server. */
export class ExchangeSessions {
  readonly #open = new Set<LegacySession>();
  readonly #replicaId: string | undefined;

  /** `replicaId`: named in the ids of the requests these sessions send. */
  constructor(replicaId?: string) {
    this.#replicaId = replicaId;
  }

  /** Opens the session of one exchange (what the client declared is unknown here). */
  open(outlet: SessionOutlet): LegacySession {
    const session = new Session(outlet, undefined, {
      capabilitiesKnown: false,
      ...(this.#replicaId !== undefined ? { replicaId: this.#replicaId } : {}),
    });
    this.#open.add(session);
    return session;
  }

  /** Ends the exchange's session (its pending requests fail). */
  release(session: LegacySession): void {
    this.#open.delete(session);
    session.close('The HTTP exchange ended.');
  }

  /** Hands a posted answer to the exchange that asked; false when none did. */
  resolve(message: Parameters<LegacySession['resolveResponse']>[0]): boolean {
    for (const session of this.#open) if (session.resolveResponse(message)) return true;
    return false;
  }
}
