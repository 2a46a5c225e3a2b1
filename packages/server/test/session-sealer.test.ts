/** Sealed 2025 session ids: round trip, rotation, tampering, principal binding; the key file. */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createSessionSealer, loadSessionKeys, ServerError, ServerErrorCode } from '../src/index.js';

const state = {
  protocolVersion: '2025-11-25',
  clientCapabilities: { elicitation: {} },
  clientInfo: { name: 'test-client', version: '1.0.0' },
};

describe('createSessionSealer', () => {
  test('an id opens for its principal with the sealed state, and two seals differ', () => {
    const sealer = createSessionSealer({ keys: [randomBytes(32)] });
    const id = sealer.seal(state, 'alice');
    expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
    const opened = sealer.open(id, 'alice');
    expect(opened).toMatchObject(state);
    expect(typeof opened?.createdAt).toBe('number');
    expect(opened?.nonce).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(sealer.seal(state, 'alice')).not.toBe(id);
  });

  test('another principal, one changed byte, a foreign key or junk: undefined', () => {
    const sealer = createSessionSealer({ keys: [randomBytes(32)] });
    const id = sealer.seal(state, 'alice');
    expect(sealer.open(id, 'bob')).toBeUndefined();
    const bytes = Buffer.from(id, 'base64url');
    for (const index of [0, 3, 10, bytes.length - 20, bytes.length - 1]) {
      const tampered = Buffer.from(bytes);
      tampered[index] = (tampered[index] as number) ^ 0x01;
      expect(sealer.open(tampered.toString('base64url'), 'alice')).toBeUndefined();
    }
    expect(createSessionSealer({ keys: [randomBytes(32)] }).open(id, 'alice')).toBeUndefined();
    for (const junk of ['', 'not a seal!', 'AAAA', 'x'.repeat(20_000)])
      expect(sealer.open(junk, 'alice')).toBeUndefined();
  });

  test('rotation: the first key seals, every key opens; a retired key no longer opens', () => {
    const old = randomBytes(32);
    const fresh = randomBytes(32);
    const before = createSessionSealer({ keys: [old] }).seal(state, 'alice');
    const rotating = createSessionSealer({ keys: [fresh, old] });
    expect(rotating.open(before, 'alice')).toMatchObject(state);
    const after = rotating.seal(state, 'alice');
    expect(createSessionSealer({ keys: [fresh] }).open(after, 'alice')).toMatchObject(state);
    expect(createSessionSealer({ keys: [fresh] }).open(before, 'alice')).toBeUndefined();
  });

  test('keys of the wrong size or none are refused with a clear error', () => {
    expect(() => createSessionSealer({ keys: [randomBytes(16)] })).toThrow(/key 1 has 16 bytes.*32/);
    expect(() => createSessionSealer({ keys: [] })).toThrow(/at least one 32-byte key/);
  });
});

describe('loadSessionKeys', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sb-keys-'));

  test('base64 and hex keys, comments and blank lines', () => {
    const first = randomBytes(32);
    const second = randomBytes(32);
    const path = join(dir, 'keys');
    writeFileSync(
      path,
      `# current\n${first.toString('base64')}\n\n  ${second.toString('hex')}  # previous\n`,
    );
    const keys = loadSessionKeys(path);
    expect(keys.map((key) => key.toString('hex'))).toEqual([first.toString('hex'), second.toString('hex')]);
  });

  test('a bad line: an error naming the file and the line, never the key', () => {
    const path = join(dir, 'bad');
    const secret = 'c2VjcmV0LWJ1dC10b28tc2hvcnQ';
    writeFileSync(path, `${randomBytes(32).toString('base64')}\n# ok\n${secret}\n`);
    let caught: unknown;
    try {
      loadSessionKeys(path);
    } catch (error) {
      caught = error;
    }
    expect(ServerError.isServerError(caught)).toBe(true);
    expect((caught as ServerError).code).toBe(ServerErrorCode.ConfigInvalid);
    expect((caught as Error).message).toContain(`${path}, line 3`);
    expect((caught as Error).message).toContain('openssl rand');
    expect((caught as Error).message).not.toContain(secret);
  });

  test('a missing or empty file says so', () => {
    expect(() => loadSessionKeys(join(dir, 'absent'))).toThrow(
      /Cannot read the session key file .*absent: ENOENT/,
    );
    const empty = join(dir, 'empty');
    writeFileSync(empty, '# nothing yet\n');
    expect(() => loadSessionKeys(empty)).toThrow(/holds no key/);
  });
});
