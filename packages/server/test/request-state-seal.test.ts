/**
 * The typed codec of sealed `requestState`: callers see named fields; the token keeps the compact
 * wire keys, so a state sealed by an earlier version (or another replica mid-upgrade) still opens.
 */
import { randomBytes } from 'node:crypto';
import { createRequestStateCodec } from '@modelcontextprotocol/server';
import { describe, expect, test } from 'vitest';
import { ServerErrorCode } from '../src/index.js';
import { RequestStateSeal } from '../src/tools/request-state-seal.js';

describe('RequestStateSeal', () => {
  test('round-trips every named field', async () => {
    const seal = new RequestStateSeal();
    const state = {
      method: 'tools/call',
      target: 'ask',
      runId: 'run-1',
      handlerState: 'tool-state',
      replica: 'r1',
    };
    await expect(seal.open(await seal.seal(state), 'tools/call', 'ask')).resolves.toEqual(state);
    await expect(seal.ownerOf(await seal.seal(state), 'tools/call')).resolves.toEqual({
      replica: 'r1',
      target: 'ask',
    });
  });

  test('opens a token sealed with the wire keys (as earlier versions sealed it)', async () => {
    const key = randomBytes(32);
    const earlier = createRequestStateCodec<Record<string, string>>({ key, ttlSeconds: 600 });
    const token = await earlier.mint({ m: 'tools/call', t: 'ask', r: 'run-9', o: 'r2' });
    const seal = new RequestStateSeal({ key });
    await expect(seal.open(token, 'tools/call', 'ask')).resolves.toEqual({
      method: 'tools/call',
      target: 'ask',
      runId: 'run-9',
      replica: 'r2',
    });
  });

  test('refuses a state minted for another call, by code', async () => {
    const seal = new RequestStateSeal();
    const token = await seal.seal({ method: 'prompts/get', target: 'p' });
    await expect(seal.open(token, 'tools/call', 'p')).rejects.toMatchObject({
      code: ServerErrorCode.RequestStateInvalid,
    });
  });
});
