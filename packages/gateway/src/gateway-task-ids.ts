/**
 * Gateway task ids (why): an upstream's task id means something only on that upstream, and two
 * upstreams may hand out the same one, so the gateway id names its origin: the upstream's name and
 * its task id (`base64url` of `[server, taskId]`, behind a version tag). Every downstream client
 * shares the gateway's one connection to an upstream, so the upstream cannot tell them apart: the
 * id is also bound to the downstream caller that started the task (its auth principal and 2025
 * session) by an HMAC under the gateway's key, and only that caller may use it. No state is kept:
 * any replica holding the same key reads any id.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const idTag = 'sbt2.';
/** Bytes of the id's HMAC kept (128 bits: not guessable, the id stays short). */
const macBytes = 16;
/** Separates the task-id key from the `requestState` key it is derived from. */
const keyLabel = 'switchboard gateway task id v2';

/** Who a relayed task belongs to: the downstream caller's auth principal and 2025 session. */
export interface TaskOwner {
  principal?: string | undefined;
  sessionId?: string | undefined;
}

/** An id's origin, and whether the caller that presented it is the one it was issued to. */
export interface TaskIdOrigin {
  server: string;
  taskId: string;
  /** `false`: issued to another caller, or altered. */
  owned: boolean;
}

/**
 * Signs and reads gateway task ids under the gateway's keys (the first signs, every one verifies,
 * for rotation). Replicas that answer for each other's tasks need the same keys.
 */
export class GatewayTaskIds {
  readonly #keys: readonly Buffer[];

  /** `keys`: the gateway's `requestState` keys (a task-id key is derived from each); one random key without. */
  constructor(keys: ReadonlyArray<string | Uint8Array> = [randomBytes(32)]) {
    this.#keys = keys.map((key) => createHmac('sha256', key).update(keyLabel).digest());
  }

  /** The gateway id of upstream `server`'s task `taskId`, issued to `owner`. */
  issue(server: string, taskId: string, owner: TaskOwner): string {
    const payload = Buffer.from(JSON.stringify([server, taskId])).toString('base64url');
    const mac = this.#mac(this.#keys[0] as Buffer, payload, owner);
    return `${idTag}${payload}.${mac.toString('base64url')}`;
  }

  /** The origin of a gateway task id presented by `owner`; `undefined` for an id of another scheme or malformed. */
  read(id: string, owner: TaskOwner): TaskIdOrigin | undefined {
    const origin = upstreamTaskOf(id);
    if (origin === undefined) return undefined;
    const [payload = '', mac = ''] = id.slice(idTag.length).split('.');
    const given = Buffer.from(mac, 'base64url');
    // A forged id and another caller's read alike: without the key no owner can be told apart.
    const owned =
      given.length === macBytes &&
      this.#keys.some((key) => timingSafeEqual(given, this.#mac(key, payload, owner)));
    return { ...origin, owned };
  }

  #mac(key: Buffer, payload: string, owner: TaskOwner): Buffer {
    return createHmac('sha256', key)
      .update(JSON.stringify([payload, owner.principal ?? null, owner.sessionId ?? null]))
      .digest()
      .subarray(0, macBytes);
  }
}

/** The upstream and its task id a gateway task id names (not verified); `undefined` for any other id. */
export function upstreamTaskOf(id: string): { server: string; taskId: string } | undefined {
  if (!id.startsWith(idTag)) return undefined;
  const [payload, mac, ...rest] = id.slice(idTag.length).split('.');
  if (payload === undefined || mac === undefined || rest.length > 0) return undefined;
  try {
    const decoded: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    if (!Array.isArray(decoded) || decoded.length !== 2) return undefined;
    const [server, taskId] = decoded as unknown[];
    return typeof server === 'string' && typeof taskId === 'string' ? { server, taskId } : undefined;
  } catch {
    return undefined;
  }
}
