/**
 * The guard can fail: a small workspace written to a temporary folder breaks each rule once, and
 * every break is reported at its file and line (and nothing that only looks like an import is).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkLayering, type KnownLoop, type LayeringFinding } from '../src/check-layering.js';
import { readImports } from '../src/read-imports.js';

const folders: string[] = [];

/** A workspace in a fresh temporary folder: each key a path, each value the file's text. */
function workspace(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'layering-'));
  folders.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const manifest = (name: string, fields: Record<string, unknown> = {}) =>
  JSON.stringify({ name, type: 'module', exports: { '.': './dist/index.js' }, ...fields }, null, 2);

const layering = (rows: string[]) =>
  [
    '# Architecture',
    '',
    '## Layering (one way)',
    '',
    '| package | may import |',
    '|---|---|',
    ...rows,
    '',
  ].join('\n');

/** Two packages, `low` beneath `high`, and every rule broken once. */
const brokenWorkspace = {
  'pnpm-workspace.yaml': 'packages:\n  - packages/*\n',
  'docs/architecture.md': layering(['| `packages/low` | — |', '| `packages/high` | `packages/low` |']),
  'packages/low/package.json': manifest('@fixture/low', {
    exports: { '.': './dist/index.js', './extra': './dist/extra.js' },
  }),
  'packages/low/src/index.ts': [
    '// import { nothing } from "not-a-dependency": a comment, not an import',
    'export const text = "import { high } from \'@fixture/high\'";',
    "import { high } from '@fixture/high';",
    'export const low = high;',
  ].join('\n'),
  'packages/high/package.json': manifest('@fixture/high', {
    dependencies: { '@fixture/low': 'workspace:^', zod: '4.0.0' },
  }),
  'packages/high/src/a.ts': ["import type { B } from './b.js';", 'export type A = { b?: B };'].join('\n'),
  'packages/high/src/b.ts': ["import type { A } from './a.js';", 'export type B = { a?: A };'].join('\n'),
  'packages/high/src/reach.ts': [
    "import { low } from '@fixture/low';",
    "import { extra } from '@fixture/low/extra';",
    "import { internal } from '@fixture/low/internal';",
    "import { source } from '@fixture/low/src/index.js';",
    "export { z } from 'zod';",
    "import leftPad from 'left-pad';",
    "const relative = await import('../../low/src/index.js');",
    "import { missing } from './missing.js';",
    "import { readFile } from 'node:fs/promises';",
    'export const all = [low, extra, internal, source, leftPad, relative, missing, readFile];',
  ].join('\n'),
  'packages/high/src/high.ts':
    "export const high = 1;\nimport { tool } from './feature/tool.js';\nexport { tool };\n",
  'packages/high/src/feature/tool.ts': "import { high } from '../high.js';\nexport const tool = high;\n",
};

const where = (finding: LayeringFinding) => `${finding.rule} ${finding.file}:${finding.line}`;

describe('checkLayering', () => {
  it('reports a layer breach, an import cycle and each other broken rule at its file and line', () => {
    const findings = checkLayering({ root: workspace(brokenWorkspace) });
    expect(findings.map(where)).toEqual([
      'file-cycle packages/high/src/a.ts:1',
      'file-cycle packages/high/src/feature/tool.ts:1',
      'folder-cycle packages/high/src/feature/tool.ts:1',
      'deep-path packages/high/src/reach.ts:3',
      'sibling-src packages/high/src/reach.ts:4',
      'undeclared-dependency packages/high/src/reach.ts:6',
      'sibling-src packages/high/src/reach.ts:7',
      'unresolved-import packages/high/src/reach.ts:8',
      'layer packages/low/src/index.ts:3',
      'undeclared-dependency packages/low/src/index.ts:3',
    ]);
    const message = (rule: string, file: string) =>
      findings.find((finding) => finding.rule === rule && finding.file.endsWith(file))?.message;
    expect(message('layer', 'low/src/index.ts')).toContain('packages/low may not import packages/high');
    expect(message('file-cycle', 'a.ts')).toContain('a.ts:1 (type-only) → b.ts:1 (type-only) → a.ts');
    expect(message('folder-cycle', 'tool.ts')).toContain('feature/ → high.ts → feature/');
    expect(message('deep-path', 'reach.ts')).toContain('exports ., ./extra, not ./internal');
  });

  it('reads a declared workspace dependency above its layer as a breach too', () => {
    const root = workspace({
      ...brokenWorkspace,
      'packages/low/package.json': manifest('@fixture/low', { devDependencies: { '@fixture/high': '*' } }),
      'packages/low/src/index.ts': 'export const low = 1;\n',
    });
    expect(
      checkLayering({ root })
        .filter((finding) => finding.rule === 'layer')
        .map(where),
    ).toEqual(['layer packages/low/package.json:8']);
  });

  it('lets a package’s tests use what its row names under (tests: …), and not its sources', () => {
    const root = workspace({
      ...brokenWorkspace,
      'docs/architecture.md': layering([
        '| `packages/low` | — (tests: `packages/high`) |',
        '| `packages/high` | — |',
      ]),
      'packages/low/package.json': manifest('@fixture/low', {
        dependencies: { '@fixture/high': '*' },
        devDependencies: { '@fixture/high': '*' },
      }),
      'packages/high/package.json': manifest('@fixture/high'),
      'packages/high/src/index.ts': 'export const high = 1;\n',
      'packages/high/src/a.ts': 'export const a = 1;\n',
      'packages/high/src/b.ts': 'export const b = 1;\n',
      'packages/high/src/reach.ts': 'export const reach = 1;\n',
      'packages/high/src/high.ts': 'export const high = 1;\n',
      'packages/high/src/feature/tool.ts': 'export const tool = 1;\n',
    });
    const findings = checkLayering({ root });
    // The devDependency passes; the runtime dependency and the import from src/ do not.
    expect(findings.map(where)).toEqual([
      'layer packages/low/package.json:8',
      'layer packages/low/src/index.ts:3',
    ]);
    expect(findings[1]?.message).toContain('is for its tests only');

    const loop = workspace({
      ...brokenWorkspace,
      'docs/architecture.md': layering([
        '| `packages/low` | — (tests: `packages/high`) |',
        '| `packages/high` | `packages/low` |',
      ]),
    });
    const table = checkLayering({ root: loop }).filter((finding) => finding.rule === 'layer-table');
    expect(table.map((finding) => finding.message)).toEqual([
      'the graph has a loop: packages/low ↔ packages/high.',
    ]);
  });

  it('leaves a known loop out, and fails when a known loop is gone', () => {
    const root = workspace(brokenWorkspace);
    const known: KnownLoop = {
      rule: 'file-cycle',
      folder: 'packages/high/src',
      members: ['b.ts', 'a.ts'],
      why: 'a fixture',
    };
    const kept = checkLayering({ root, knownLoops: [known] }).map(where);
    expect(kept).not.toContain('file-cycle packages/high/src/a.ts:1');
    expect(kept).toContain('file-cycle packages/high/src/feature/tool.ts:1');

    const gone = { ...known, members: ['a.ts', 'c.ts'] };
    const stale = checkLayering({ root, knownLoops: [gone], knownLoopsFile: 'known.ts' });
    expect(stale.map(where)).toContain('stale-known-loop known.ts:1');
    expect(stale.map(where)).toContain('file-cycle packages/high/src/a.ts:1');
  });

  it('fails when the document has no table, or a workspace package has no row in it', () => {
    const noTable = workspace({
      ...brokenWorkspace,
      'docs/architecture.md': '## Layering (one way)\n\nA picture.\n',
    });
    expect(checkLayering({ root: noTable }).map(where)).toEqual(['layer-table docs/architecture.md:1']);

    const noRow = workspace({
      ...brokenWorkspace,
      'docs/architecture.md': layering(['| `packages/low` | — |']),
    });
    const findings = checkLayering({ root: noRow }).filter((finding) => finding.rule === 'layer-table');
    expect(findings.map((finding) => finding.message)).toEqual([
      'workspace package packages/high has no row: place it in the graph (the folders it may import).',
    ]);
  });

  it('passes a workspace that keeps its graph', () => {
    const root = workspace({
      'pnpm-workspace.yaml': 'packages:\n  - packages/*\n',
      'docs/architecture.md': layering(['| `packages/low` | — |', '| `packages/high` | `packages/low` |']),
      'packages/low/package.json': manifest('@fixture/low'),
      'packages/low/src/index.ts': "export { low } from './low.js';\n",
      'packages/low/src/low.ts': 'export const low = 1;\n',
      'packages/high/package.json': manifest('@fixture/high', { dependencies: { '@fixture/low': '*' } }),
      'packages/high/src/index.ts': "import { low } from '@fixture/low';\nexport const high = low + 1;\n",
    });
    expect(checkLayering({ root })).toEqual([]);
  });
});

describe('readImports', () => {
  it('reads every form of module reference, type-only ones marked, and nothing in strings or comments', () => {
    const text = [
      "import a from 'value';",
      "import type { B } from 'types';",
      "import { type C, type D } from 'all-type-specifiers';",
      "import { type E, f } from 'mixed';",
      "import 'side-effect';",
      "export { g } from 'reexport';",
      "export type { H } from 'type-reexport';",
      "export * from 'star';",
      "const lazy = () => import('lazy');",
      "type I = import('type-query').I;",
      "import j = require('import-equals');",
      "const k = require.resolve('resolved');",
      "// import nothing from 'comment';",
      'const text = "import nothing from \'string\'";',
      'const computed = (name: string) => import(name);',
    ].join('\n');
    expect(
      readImports('file.ts', text).map((record) => [
        record.specifier,
        record.kind,
        record.typeOnly,
        record.line,
      ]),
    ).toEqual([
      ['value', 'import', false, 1],
      ['types', 'import', true, 2],
      ['all-type-specifiers', 'import', true, 3],
      ['mixed', 'import', false, 4],
      ['side-effect', 'import', false, 5],
      ['reexport', 'export', false, 6],
      ['type-reexport', 'export', true, 7],
      ['star', 'export', false, 8],
      ['lazy', 'dynamic', false, 9],
      ['type-query', 'import-type', true, 10],
      ['import-equals', 'import', false, 11],
      ['resolved', 'require', false, 12],
    ]);
  });
});
