/**
 * The page's call form model (src/page/schema-form-model.ts) against the real tools: every argument
 * of server-everything's and server-filesystem's tools gets a control (none falls back to raw
 * JSON), each field has its own DOM id, and the validator's 422 pointers land on the field they
 * name. Plus the JSON Schema shapes tools send that the official two do not (`$ref`, nullable
 * `anyOf`, `oneOf` with shared properties, multi-select enums).
 */

import { everythingStdio, serverScript } from '@switchboard/test-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fieldId,
  fieldKind,
  fieldPointers,
  initialValue,
  mergeBranch,
  placeErrors,
  propertiesOf,
  pruneValue,
  resolveSchema,
  setAt,
  toPointer,
} from '../src/page/schema-form-model.js';
import type { UiErrorBody, UiToolDetail, UiToolSummary } from '../src/ui-api.js';
import { startUi, type UiHarness } from './inspector-harness.js';

type Schema = Record<string, unknown>;

let ui: UiHarness;
const details: UiToolDetail[] = [];

beforeAll(async () => {
  ui = await startUi({
    everything: everythingStdio(),
    files: { command: process.execPath, args: [serverScript('server-filesystem'), process.cwd()] },
  });
  for (const server of ['everything', 'files']) {
    const { body: tools } = await ui.api<UiToolSummary[]>('GET', `/api/servers/${server}/tools`);
    for (const tool of tools) {
      const { body } = await ui.api<UiToolDetail>(
        'GET',
        `/api/servers/${server}/tools/${encodeURIComponent(tool.name)}`,
      );
      details.push(body);
    }
  }
});
afterAll(async () => {
  await ui?.close();
});

/** Every property of a schema, nested, with the kind of control the form gives it. */
function controls(
  schema: Schema,
  root: Schema,
  path: Array<string | number> = [],
): Array<{ pointer: string; kind: string }> {
  const resolved = resolveSchema(schema, root);
  return propertiesOf(resolved).flatMap((property) => {
    const at = [...path, property.name];
    const child = resolveSchema(property.schema, root);
    const kind = fieldKind(child, property.name);
    return [{ pointer: toPointer(at), kind }, ...(kind === 'object' ? controls(child, root, at) : [])];
  });
}

describe('the call form over the official servers’ tools', () => {
  it('gives every argument a control, none raw JSON', () => {
    expect(details.length).toBeGreaterThan(20);
    const raw = details.flatMap((tool) =>
      controls(tool.inputSchema, tool.inputSchema)
        .filter((control) => control.kind === 'raw')
        .map((control) => `${tool.server}/${tool.name}${control.pointer}`),
    );
    expect(raw).toEqual([]);
    const kinds = new Set(
      details.flatMap((tool) => controls(tool.inputSchema, tool.inputSchema).map((c) => c.kind)),
    );
    // The two servers between them use these controls (a regression to raw would drop one).
    for (const kind of ['string', 'text', 'number', 'enum', 'array', 'boolean'])
      expect(kinds).toContain(kind);
  });

  it('gives each field of a form its own DOM id', () => {
    for (const tool of details) {
      const value = initialValue(tool.inputSchema, tool.inputSchema, true);
      const pointers = [...fieldPointers(tool.inputSchema, tool.inputSchema, value)];
      const ids = pointers.map((pointer) => fieldId('call', pointer.split('/').slice(1)));
      expect(new Set(ids).size, `${tool.server}/${tool.name}`).toBe(ids.length);
      for (const id of ids) expect(id).toMatch(/^[A-Za-z][\w-]*$/);
    }
  });

  it('puts the validator’s errors of a 422 on the fields they name', async () => {
    const getSum = details.find((tool) => tool.name === 'get-sum');
    expect(getSum).toBeDefined();
    const { status, body } = await ui.api<UiErrorBody>('POST', '/api/calls', {
      server: 'everything',
      tool: 'get-sum',
      arguments: { b: 'two' },
    });
    expect(status).toBe(422);
    const fields = body.error.fields ?? [];
    const schema = getSum!.inputSchema;
    const placed = placeErrors(fields, fieldPointers(schema, schema, { b: 'two' }));
    expect([...placed.keys()].sort()).toEqual(['/a', '/b']);
    expect(placed.get('')).toBeUndefined();
  });

  it('sends what was filled in: unset fields and an empty optional object dropped', () => {
    const writeFile = details.find((tool) => tool.name === 'write_file')!;
    let value = initialValue(writeFile.inputSchema, writeFile.inputSchema, true);
    value = setAt(value, ['path'], '/tmp/x');
    expect(pruneValue(value, true)).toEqual({ path: '/tmp/x' });
    expect(pruneValue({ a: undefined, nested: { b: undefined }, list: [1, undefined] }, true)).toEqual({
      list: [1],
    });
  });
});

describe('schema shapes beyond the official servers', () => {
  it('resolves local $refs (and stops at a cycle)', () => {
    const root: Schema = {
      type: 'object',
      properties: { owner: { $ref: '#/$defs/person' }, loop: { $ref: '#/$defs/loop' } },
      $defs: {
        person: { type: 'object', properties: { name: { type: 'string' } } },
        loop: { $ref: '#/$defs/loop' },
      },
    };
    expect(fieldKind(resolveSchema({ $ref: '#/$defs/person' }, root))).toBe('object');
    expect(fieldKind(resolveSchema({ $ref: '#/$defs/loop' }, root))).toBe('raw');
    expect(controls(root, root).map((control) => control.pointer)).toEqual([
      '/owner',
      '/owner/name',
      '/loop',
    ]);
  });

  it('reads a nullable anyOf as its type, a oneOf of consts as an enum, an array of enums as a multi-select', () => {
    expect(fieldKind({ anyOf: [{ type: 'integer' }, { type: 'null' }] })).toBe('integer');
    expect(fieldKind({ type: ['string', 'null'] })).toBe('string');
    expect(fieldKind({ oneOf: [{ const: 'a', title: 'A' }, { const: 'b' }] })).toBe('enum');
    expect(fieldKind({ type: 'array', items: { enum: ['x', 'y'] } })).toBe('multiEnum');
    expect(
      fieldKind({ oneOf: [{ type: 'string' }, { type: 'object', properties: { id: { type: 'integer' } } }] }),
    ).toBe('oneOf');
    expect(fieldKind({ allOf: [{ type: 'string' }] })).toBe('raw');
  });

  it('forms a oneOf branch with its parent’s properties', () => {
    const parent: Schema = {
      type: 'object',
      properties: { id: { type: 'integer' }, path: { type: 'string' } },
      oneOf: [{ required: ['id'] }, { required: ['path'] }],
    };
    const branch = mergeBranch(parent, { required: ['path'] });
    expect(fieldKind(branch)).toBe('object');
    expect(propertiesOf(branch).map((p) => `${p.name}${p.required ? '!' : ''}`)).toEqual(['id', 'path!']);
  });

  it('places an error under an unrendered field on its nearest rendered ancestor', () => {
    const schema: Schema = {
      type: 'object',
      properties: { config: { type: 'object', additionalProperties: true } },
    };
    const placed = placeErrors(
      [
        { path: '/config/deep/key', message: 'must be string' },
        { path: '', message: 'must NOT have additional properties' },
      ],
      fieldPointers(schema, schema, {}),
    );
    expect(placed.get('/config')).toEqual(['must be string']);
    expect(placed.get('')).toEqual(['must NOT have additional properties']);
  });
});
