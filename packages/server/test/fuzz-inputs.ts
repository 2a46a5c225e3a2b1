/** Seeded generator of malformed and random JSON-RPC inputs for the fuzz tests, with the answer each deserves. */

/** What the server must answer. */
export type Expectation =
  | { kind: 'error'; code: number; id: string | number | null }
  | { kind: 'result'; id: string | number }
  | { kind: 'none' };

export interface FuzzInput {
  text: string;
  expect: Expectation;
  /** HTTP headers of the input (2026-07-28 requests carry the standard ones). */
  headers?: Record<string, string>;
  /** What stdio must answer, when it differs (stdio has no headers to disagree with the body). */
  stdio?: Expectation;
}

/** The `_meta` envelope of a 2026-07-28 request. */
export function modernEnvelope(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'fuzz', version: '1' },
    ...overrides,
  };
}

/** mulberry32: small, fast, deterministic. */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const printable =
  ' !"#$%&\'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~é€😀\t';

export function createFuzzer(seed: number) {
  const random = createRandom(seed);
  const int = (n: number) => Math.floor(random() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  const text = (max: number) => {
    let out = '';
    const length = int(max);
    for (let i = 0; i < length; i++) out += printable[int(printable.length)];
    return out;
  };
  let counter = 0;

  /** A 2026-07-28 request and its standard headers. */
  function modern(
    id: string,
    method: string,
    params: Record<string, unknown>,
    meta: Record<string, unknown> = modernEnvelope(),
  ) {
    const name = typeof params.name === 'string' ? params.name : undefined;
    return {
      text: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } }),
      headers: {
        'mcp-protocol-version': String(meta['io.modelcontextprotocol/protocolVersion'] ?? '2026-07-28'),
        'mcp-method': method,
        ...(name !== undefined ? { 'mcp-name': name } : {}),
      } as Record<string, string>,
    };
  }

  function validCall(id: string): string {
    return JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'echo', arguments: { message: text(40) } },
    });
  }

  const generators: Array<(id: string) => FuzzInput> = [
    // Bad JSON: a valid request cut short, or garbage after an opening brace.
    (id) => {
      const full = validCall(id);
      return {
        text: full.slice(0, 1 + int(full.length - 2)),
        expect: { kind: 'error', code: -32700, id: null },
      };
    },
    () => ({ text: `{${text(60).replace(/}/g, '')}`, expect: { kind: 'error', code: -32700, id: null } }),
    () => ({
      text: pick(['{"jsonrpc":"2.0",', 'nul', 'tru', '{"a":}', "{'id':1}", '[1,2', '{"id":1,,}', '\u0000{}']),
      expect: { kind: 'error', code: -32700, id: null },
    }),
    // Valid JSON that is not an object.
    () => ({
      text: JSON.stringify(pick([1, -7.5, 'text', null, true, false, 1e308])),
      expect: { kind: 'error', code: -32600, id: null },
    }),
    // Wrong jsonrpc version.
    (id) => ({
      text: JSON.stringify({ jsonrpc: pick(['1.0', 2, null, '']), id, method: 'ping' }),
      expect: { kind: 'error', code: -32600, id },
    }),
    (id) => ({ text: JSON.stringify({ id, method: 'ping' }), expect: { kind: 'error', code: -32600, id } }),
    // Method of the wrong type.
    (id) => ({
      text: JSON.stringify({ jsonrpc: '2.0', id, method: pick([5, null, {}, [], true, '']) }),
      expect: { kind: 'error', code: -32600, id },
    }),
    // Ids the spec (and the SDK) do not accept: huge, fractional, objects, booleans, null.
    () => ({
      text: `{"jsonrpc":"2.0","id":${pick(['1e20', '-1e300', '1.5', '123456789012345678901234567890', '{}', '[]', 'true', 'null'])},"method":"ping"}`,
      expect: { kind: 'error', code: -32600, id: null },
    }),
    // Params that are not an object.
    (id) => ({
      text: JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: pick(['ping', 'tools/list', 'tools/call']),
        params: pick(['x', 5, [1, 2], true]),
      }),
      expect: { kind: 'error', code: -32602, id },
    }),
    // Unknown methods.
    (id) => ({
      text: JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: `${pick(['foo', 'tools', 'resources', 'x'])}/${text(12)}!`,
        params: {},
      }),
      expect: { kind: 'error', code: -32601, id },
    }),
    (id) => ({
      text: JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: pick(['resources/read', 'prompts/get', 'sampling/createMessage', 'tools/delete']),
        params: {},
      }),
      expect: { kind: 'error', code: -32601, id },
    }),
    // Known methods with params of the wrong shape.
    (id) => ({
      text: JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: pick([{}, { name: 5 }, { name: 'echo', arguments: 'x' }, { name: null }, { name: ['echo'] }]),
      }),
      expect: { kind: 'error', code: -32602, id },
    }),
    (id) => ({
      text: JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'logging/setLevel',
        params: { level: pick(['loud', 5, null]) },
      }),
      expect: { kind: 'error', code: -32602, id },
    }),
    (id) => ({
      text: JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/list',
        params: { cursor: pick([5, {}, true]) },
      }),
      expect: { kind: 'error', code: -32602, id },
    }),
    (id) => ({
      text: JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'completion/complete',
        params: pick([{}, { ref: 5 }, { ref: { type: 'x' } }]),
      }),
      expect: { kind: 'error', code: -32602, id },
    }),
    (id) => ({
      text: JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'initialize',
        params: pick([{}, { protocolVersion: 5 }, { capabilities: 'x' }]),
      }),
      expect: { kind: 'error', code: -32602, id },
    }),
    (id) => ({
      text: JSON.stringify({ jsonrpc: '2.0', id, method: 'ping', params: { _meta: pick([5, 'x', [1]]) } }),
      expect: { kind: 'error', code: -32602, id },
    }),
    // Valid calls with random (possibly wrong) arguments: a result, maybe isError.
    (id) => ({
      text: JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: {
          name: pick(['echo', 'add']),
          arguments: pick([
            { message: text(30) },
            { message: int(100) },
            {},
            { a: 1, b: 'x' },
            { a: 1, b: 2 },
          ]),
        },
      }),
      expect: { kind: 'result', id },
    }),
    (id) => ({ text: validCall(id), expect: { kind: 'result', id } }),
    (id) => ({
      text: JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'echo', arguments: { message: 'x'.repeat(int(20_000)) } },
      }),
      expect: { kind: 'result', id },
    }),
    (id) => {
      const depth = 50 + int(400);
      return {
        text: `{"jsonrpc":"2.0","id":"${id}","method":"tools/call","params":{"name":"echo","arguments":{"message":${'['.repeat(depth)}${']'.repeat(depth)}}}}`,
        expect: { kind: 'result', id },
      };
    },
    (id) => ({
      text: JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' }),
      expect: { kind: 'result', id },
    }),
    (id) => ({
      text: JSON.stringify({
        jsonrpc: '2.0',
        id: int(2 ** 31),
        method: 'tools/list',
        params: { _meta: { x: id } },
      }),
      expect: { kind: 'result', id: -1 },
    }),
    // 2026-07-28 requests: served, or refused with the error the spec names.
    (id) => ({
      ...modern(id, 'tools/call', {
        name: pick(['echo', 'add']),
        arguments: pick([{ message: text(20) }, { a: 1, b: 2 }, {}]),
      }),
      expect: { kind: 'result', id },
    }),
    (id) => ({ ...modern(id, pick(['server/discover', 'tools/list']), {}), expect: { kind: 'result', id } }),
    (id) => ({
      ...modern(
        id,
        'tools/call',
        { name: 'echo', arguments: { message: 'x' } },
        modernEnvelope({ 'io.modelcontextprotocol/clientCapabilities': undefined }),
      ),
      expect: { kind: 'error', code: -32602, id },
    }),
    (id) => ({
      ...modern(
        id,
        'tools/list',
        {},
        modernEnvelope({ 'io.modelcontextprotocol/clientCapabilities': pick(['all', 5, [1], null]) }),
      ),
      expect: { kind: 'error', code: -32602, id },
    }),
    (id) => ({
      ...modern(
        id,
        'tools/list',
        {},
        modernEnvelope({
          'io.modelcontextprotocol/protocolVersion': pick(['2099-01-01', 'v9', '2026-07-29', '2025-11-25']),
        }),
      ),
      expect: { kind: 'error', code: -32022, id },
    }),
    (id) => ({
      ...modern(
        id,
        pick(['ping', 'initialize', 'logging/setLevel', 'resources/subscribe', `x/y${int(1e6)}`]),
        {},
      ),
      expect: { kind: 'error', code: -32601, id },
    }),
    (id) => ({
      ...modern(id, 'tools/call', {
        name: 'echo',
        arguments: {},
        requestState: pick(['', 'v1.x.y', text(40), 'v1.e30.AAAA']),
        inputResponses: {},
      }),
      expect: { kind: 'error', code: -32602, id },
    }),
    (id) => ({
      ...modern(id, 'tools/call', { name: 'echo', arguments: {}, inputResponses: pick([null, 5, 'x', [1]]) }),
      expect: { kind: 'error', code: -32602, id },
    }),
    (id) => {
      // Headers that disagree with the body: refused over HTTP; stdio has no headers.
      const request = modern(id, 'tools/call', { name: 'echo', arguments: { message: 'x' } });
      const wrong = pick([
        { 'mcp-method': pick(['tools/list', 'prompts/get', 'Tools/Call']) },
        { 'mcp-name': pick(['add', 'ECHO', '=?base64?***?=']) },
        { 'mcp-protocol-version': pick(['2025-11-25', '2025-06-18']) },
      ]);
      return {
        ...request,
        headers: { ...request.headers, ...wrong },
        expect: { kind: 'error', code: -32020, id },
        stdio: { kind: 'result', id },
      };
    },
    // Notifications and stray responses: no answer.
    () => ({
      text: JSON.stringify({ jsonrpc: '2.0', method: `notifications/${text(10)}`, params: {} }),
      expect: { kind: 'none' },
    }),
    () => ({
      text: JSON.stringify({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: int(1000), reason: text(10) },
      }),
      expect: { kind: 'none' },
    }),
    () => ({
      text: JSON.stringify({ jsonrpc: '2.0', id: `stray-${int(1e6)}`, result: {} }),
      expect: { kind: 'none' },
    }),
    () => ({
      text: JSON.stringify({ jsonrpc: '2.0', id: int(1e6), error: { code: -1, message: 'x' } }),
      expect: { kind: 'none' },
    }),
  ];

  return {
    random,
    /** The next input; ids are unique strings (`f<n>`). */
    next(): FuzzInput {
      counter += 1;
      const id = `f${counter}`;
      const input = (generators[int(generators.length)] as (id: string) => FuzzInput)(id);
      // The numeric-id case's id is only known after generation.
      if (input.expect.kind === 'result' && input.expect.id === -1) {
        input.expect = { kind: 'result', id: (JSON.parse(input.text) as { id: number }).id };
      }
      return input;
    },
  };
}
