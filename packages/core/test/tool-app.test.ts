import { describe, expect, it } from 'vitest';
import {
  createToolRegistry,
  isAppCallable,
  isAppResourceUri,
  isModelFacing,
  modelFacingTools,
  modelHiddenReason,
  readAppResourceMeta,
  readToolApp,
  SwitchboardError,
} from '../src/index.js';

const schema = { type: 'object' };

describe('readToolApp', () => {
  it('reads _meta.ui with every rendering field', () => {
    const app = readToolApp({
      ui: {
        resourceUri: 'ui://weather/view.html',
        visibility: ['model', 'app'],
        csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://cdn.example.com'] },
        permissions: { camera: {}, clipboardWrite: {} },
        domain: 'abc.example-content.com',
        prefersBorder: false,
      },
      other: 'kept elsewhere',
    });
    expect(app).toEqual({
      resourceUri: 'ui://weather/view.html',
      visibility: ['model', 'app'],
      csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://cdn.example.com'] },
      permissions: { camera: {}, clipboardWrite: {} },
      domain: 'abc.example-content.com',
      prefersBorder: false,
    });
  });

  it('reads the legacy flat key, and prefers _meta.ui.resourceUri when both are there', () => {
    expect(readToolApp({ 'ui/resourceUri': 'ui://old/app.html' })).toEqual({
      resourceUri: 'ui://old/app.html',
    });
    expect(
      readToolApp({ ui: { resourceUri: 'ui://new/app.html' }, 'ui/resourceUri': 'ui://old/app.html' }),
    ).toEqual({ resourceUri: 'ui://new/app.html' });
  });

  it('reads an app-only helper tool that names no resource', () => {
    expect(readToolApp({ ui: { visibility: ['app'] } })).toEqual({ visibility: ['app'] });
  });

  it('is undefined for a tool that is not part of an app', () => {
    expect(readToolApp(undefined)).toBeUndefined();
    expect(readToolApp({ 'io.example/other': 1 })).toBeUndefined();
  });

  it('leaves out malformed fields instead of refusing the tool', () => {
    expect(
      readToolApp({
        ui: {
          resourceUri: 'https://not-an-app.example.com',
          visibility: ['model', 'robot', 7],
          csp: 'none',
          permissions: { camera: true },
          domain: 42,
          prefersBorder: 'yes',
        },
      }),
    ).toEqual({ visibility: ['model'], permissions: {} });
    expect(isAppResourceUri('ui://')).toBe(false);
    expect(isAppResourceUri('ui://x')).toBe(true);
  });

  it('reads a resource _meta.ui (CSP lists keep only strings)', () => {
    expect(readAppResourceMeta({ csp: { frameDomains: ['https://a', 3] }, prefersBorder: true })).toEqual({
      csp: { frameDomains: ['https://a'] },
      prefersBorder: true,
    });
    expect(readAppResourceMeta(null)).toEqual({});
  });
});

describe('model visibility', () => {
  const plain = {};
  const both = { app: { resourceUri: 'ui://a/b', visibility: ['model', 'app'] as const } };
  const appOnly = { app: { visibility: ['app'] as const } };
  const modelOnly = { app: { resourceUri: 'ui://a/b', visibility: ['model'] as const } };
  const nobody = { app: { visibility: [] as const } };

  it('hides app-only tools from models, and only them', () => {
    expect(modelHiddenReason(appOnly)).toBe('app-only');
    expect(modelHiddenReason(nobody)).toBe('app-only');
    expect([plain, both, modelOnly].map(isModelFacing)).toEqual([true, true, true]);
    expect(modelFacingTools([plain, appOnly, both, nobody, modelOnly])).toEqual([plain, both, modelOnly]);
  });

  it('lets apps call every tool whose visibility includes app or is absent', () => {
    expect([plain, both, appOnly, modelOnly, nobody].map(isAppCallable)).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
  });

  it('the registry keeps app metadata, lists model-facing tools apart, and still runs app-only tools', async () => {
    const registry = createToolRegistry();
    registry.register({
      server: 'monitor',
      name: 'get-info',
      description: 'info',
      inputSchema: schema,
      app: { resourceUri: 'ui://monitor/app.html' },
    });
    const poll = registry.register({
      server: 'monitor',
      name: 'poll',
      description: 'poll',
      inputSchema: schema,
      app: { visibility: ['app'] },
      execute: async () => 'polled',
    });
    expect(registry.get('mcp__monitor__get-info')?.app).toEqual({ resourceUri: 'ui://monitor/app.html' });
    expect(registry.list().map((tool) => tool.name)).toEqual([
      'mcp__monitor__get-info',
      'mcp__monitor__poll',
    ]);
    expect(registry.list({ modelFacing: true }).map((tool) => tool.name)).toEqual(['mcp__monitor__get-info']);
    expect(registry.list({ server: 'monitor', modelFacing: true })).toHaveLength(1);
    expect(await poll.execute?.({})).toBe('polled');
  });

  it('a change of app metadata is an update of the tool', () => {
    const registry = createToolRegistry();
    const events: string[] = [];
    registry.subscribe((event) => events.push(event.type));
    registry.register({ server: 's', name: 't', description: '', inputSchema: schema });
    registry.register({
      server: 's',
      name: 't',
      description: '',
      inputSchema: schema,
      app: { visibility: ['app'] },
    });
    expect(events).toEqual(['added', 'updated']);
  });

  it('refuses app metadata that is not an object, naming the tool', () => {
    const registry = createToolRegistry();
    expect(() =>
      registry.register({
        server: 's',
        name: 't',
        description: '',
        inputSchema: schema,
        app: 'ui://x' as never,
      }),
    ).toThrow(SwitchboardError);
  });
});
