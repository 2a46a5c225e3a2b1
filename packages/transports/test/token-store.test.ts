import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SwitchboardError } from '@switchboard/core';
import { createTemporaryDirectories } from '@switchboard/test-helpers';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createFileTokenStore,
  createMemoryTokenStore,
  defaultTokenDirectory,
  migrateStoredAuthorization,
  type StoredAuthorization,
  serverKey,
} from '../src/index.js';

const temporary = createTemporaryDirectories();
afterEach(() => temporary.removeAll());

const record = (serverUrl: string, accessToken: string): StoredAuthorization => ({
  version: 2,
  serverUrl,
  serverName: 'demo',
  tokens: { access_token: accessToken, token_type: 'Bearer' },
  updatedAt: Date.now(),
});

describe('token stores', () => {
  it('file store: 0700 directory, 0600 files named by a hash of the URL, list and delete', async () => {
    const root = temporary.make('sb-token-store-');
    const directory = join(root, 'auth');
    const store = createFileTokenStore({ directory });
    expect(store.specificationVersion).toBe('v1');
    expect(await store.list()).toEqual([]);
    await store.save(record('https://a.example/mcp', 'token-a'));
    await store.save(record('https://b.example/mcp', 'token-b'));
    expect((await stat(directory)).mode & 0o777).toBe(0o700);
    const file = join(directory, `${serverKey('https://a.example/mcp')}.json`);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(file).not.toContain('a.example');
    expect((await store.load('https://a.example/mcp'))?.tokens?.access_token).toBe('token-a');
    expect((await store.list()).map((entry) => entry.serverUrl).sort()).toEqual([
      'https://a.example/mcp',
      'https://b.example/mcp',
    ]);
    expect(await store.delete('https://a.example/mcp')).toBe(true);
    expect(await store.delete('https://a.example/mcp')).toBe(false);
    expect(await store.load('https://a.example/mcp')).toBeUndefined();
    expect(defaultTokenDirectory('/home/someone')).toBe('/home/someone/.switchboard/auth');
  });

  it('a corrupt file is an error naming the file, never quoting its content', async () => {
    const root = temporary.make('sb-token-store-');
    const store = createFileTokenStore({ directory: root });
    const file = join(root, `${serverKey('https://c.example/mcp')}.json`);
    await writeFile(file, '{"tokens": {"access_token": "leaked-secret-123"');
    const error = await store.load('https://c.example/mcp').catch((caught) => caught);
    expect(SwitchboardError.hasCode(error, 'TOKEN_STORE_ERROR')).toBe(true);
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).toContain('switchboard auth');
    expect(JSON.stringify(error)).not.toContain('leaked-secret-123');
    expect((error as Error).message).not.toContain('leaked-secret-123');
  });

  it('memory store keeps copies, not references', async () => {
    const store = createMemoryTokenStore();
    const saved = record('https://m.example/mcp', 'token-m');
    await store.save(saved);
    saved.tokens = { access_token: 'changed', token_type: 'Bearer' };
    expect((await store.load('https://m.example/mcp'))?.tokens?.access_token).toBe('token-m');
    expect(await store.delete('https://m.example/mcp')).toBe(true);
    expect(await store.list()).toEqual([]);
  });

  it('migrates a format-1 file: its credentials are bound to the issuer its discovery names, and saved as format 2', async () => {
    const root = temporary.make('sb-token-store-');
    const store = createFileTokenStore({ directory: root });
    const serverUrl = 'https://d.example/mcp';
    const file = join(root, `${serverKey(serverUrl)}.json`);
    await writeFile(
      file,
      JSON.stringify({
        version: 1,
        serverUrl,
        serverName: 'demo',
        tokens: { access_token: 'old-access', token_type: 'Bearer', refresh_token: 'old-refresh' },
        expiresAt: 1234,
        clientInformation: { client_id: 'old-client', redirect_uris: ['http://127.0.0.1:5555/callback'] },
        discovery: {
          authorizationServerUrl: 'https://auth.d.example/',
          authorizationServerMetadata: {
            issuer: 'https://auth.d.example',
            authorization_endpoint: 'https://auth.d.example/authorize',
            token_endpoint: 'https://auth.d.example/token',
            response_types_supported: ['code'],
          },
        },
        updatedAt: 1,
      }),
    );
    const record = await store.load(serverUrl);
    expect(record?.version).toBe(2);
    expect(record?.tokens).toEqual({
      access_token: 'old-access',
      token_type: 'Bearer',
      refresh_token: 'old-refresh',
      issuer: 'https://auth.d.example',
    });
    expect(record?.expiresAt).toBe(1234);
    expect(record?.clients?.['https://auth.d.example']?.client_id).toBe('old-client');
    expect(record?.clients?.['https://auth.d.example']?.issuer).toBe('https://auth.d.example');
    await store.save(record as StoredAuthorization);
    expect(JSON.parse(await readFile(file, 'utf8')).version).toBe(2);
  });

  it('a format-1 file without discovery keeps no credentials: nothing says which authorization server issued them', async () => {
    const store = createMemoryTokenStore();
    expect(migrateStoredAuthorization({ version: 3 })).toBeUndefined();
    await store.save(
      migrateStoredAuthorization({
        version: 1,
        serverUrl: 'https://e.example/mcp',
        serverName: 'e',
        tokens: { access_token: 'orphan', token_type: 'Bearer' },
        clientInformation: { client_id: 'orphan-client' },
        updatedAt: 1,
      }) as StoredAuthorization,
    );
    const record = await store.load('https://e.example/mcp');
    expect(record).toEqual({ version: 2, serverUrl: 'https://e.example/mcp', serverName: 'e', updatedAt: 1 });
  });
});
