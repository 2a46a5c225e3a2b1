/**
 * The layering graph, read from the one place it is written: the table under "Layering (one way)" in
 * docs/architecture.md. The guard has no copy of its own, so the document and the check cannot drift
 * apart: changing who may import whom is an edit of that table, reviewed where readers look.
 */

/** Who may import whom: each package folder (`packages/client`) → the folders its row names. */
export interface LayerTable {
  /** Direct edges, as the table writes them (outside the row's `(tests: …)`). */
  edges: Map<string, string[]>;
  /** The folders a row names in `(tests: …)`: its tests (devDependencies) may use them, its sources may not. */
  testEdges: Map<string, string[]>;
  /** 1-based line of each package's row, for messages. */
  rows: Map<string, number>;
  /** The line of the table's header. */
  line: number;
}

/** The heading the table sits under. */
export const LAYERING_HEADING = '## Layering (one way)';

/** The cells of one Markdown table row, trimmed; undefined for a line that is not a row. */
function tableCells(line: string): string[] | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith('|') || !trimmed.endsWith('|')) return undefined;
  return trimmed
    .slice(1, -1)
    .split('|')
    .map((cell) => cell.trim());
}

/** The package folders a cell names: each in backticks (`packages/core`); a cell of `—` names none. */
function namesIn(cell: string): string[] {
  const names: string[] = [];
  let at = cell.indexOf('`');
  while (at >= 0) {
    const end = cell.indexOf('`', at + 1);
    if (end < 0) break;
    names.push(cell.slice(at + 1, end));
    at = cell.indexOf('`', end + 1);
  }
  return names;
}

/** A problem with the document itself (no heading, no table, a malformed row). */
export class LayerTableError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
    this.name = 'LayerTableError';
  }
}

/** The part of a "may import" cell that names what only the package's tests may use. */
const testsPart = /\(tests:([^)]*)\)/;

/**
 * Reads the first table after {@link LAYERING_HEADING} whose header is `| package | may import | … |`.
 * Each row names one package folder in its first cell and, in its second, the folders it may import
 * directly; what those may import it may import too (a layer stands on everything beneath it).
 * Folders in a `(tests: …)` part of the cell are for the package's tests only: devDependencies.
 */
export function readLayerTable(markdown: string): LayerTable {
  const lines = markdown.split('\n');
  const heading = lines.findIndex((line) => line.trim() === LAYERING_HEADING);
  if (heading < 0) throw new LayerTableError(`no "${LAYERING_HEADING}" heading`, 1);
  let header = -1;
  for (let index = heading + 1; index < lines.length; index++) {
    const line = lines[index] as string;
    if (line.startsWith('## ')) break;
    const cells = tableCells(line);
    if (cells && cells[0] === 'package' && cells[1] === 'may import') {
      header = index;
      break;
    }
  }
  if (header < 0) {
    throw new LayerTableError(`no "| package | may import |" table under "${LAYERING_HEADING}"`, heading + 1);
  }
  const edges = new Map<string, string[]>();
  const testEdges = new Map<string, string[]>();
  const rows = new Map<string, number>();
  // header + 2 skips the `|---|---|` separator.
  for (let index = header + 2; index < lines.length; index++) {
    const cells = tableCells(lines[index] as string);
    if (!cells) break;
    const [owner, imports] = cells;
    const [name, ...extra] = namesIn(owner ?? '');
    if (name === undefined || extra.length > 0 || imports === undefined) {
      throw new LayerTableError(
        `row ${JSON.stringify(lines[index])}: expected one \`package folder\`, then the folders it may import`,
        index + 1,
      );
    }
    if (edges.has(name)) throw new LayerTableError(`${name} has two rows`, index + 1);
    const tests = testsPart.exec(imports);
    edges.set(name, namesIn(imports.replace(testsPart, '')));
    testEdges.set(name, tests ? namesIn(tests[1] as string) : []);
    rows.set(name, index + 1);
  }
  return { edges, testEdges, rows, line: header + 1 };
}

/**
 * What each package's tests may use (its devDependencies): what the package may import, the
 * folders of its `(tests: …)` part and, through them, theirs.
 */
export function allowedInTests(table: LayerTable): Map<string, Set<string>> {
  const allowed = allowedImports(table);
  const inTests = new Map<string, Set<string>>();
  for (const [name, imports] of allowed) {
    const reach = new Set(imports);
    for (const test of table.testEdges.get(name) ?? []) {
      reach.add(test);
      for (const below of allowed.get(test) ?? []) reach.add(below);
    }
    reach.delete(name);
    inTests.set(name, reach);
  }
  return inTests;
}

/** Everything each package may import: its row's folders and, through them, theirs. */
export function allowedImports(table: LayerTable): Map<string, Set<string>> {
  const allowed = new Map<string, Set<string>>();
  const reach = (name: string, seen: Set<string>) => {
    for (const next of table.edges.get(name) ?? []) {
      if (seen.has(next)) continue;
      seen.add(next);
      reach(next, seen);
    }
  };
  for (const name of table.edges.keys()) {
    const seen = new Set<string>();
    reach(name, seen);
    seen.delete(name);
    allowed.set(name, seen);
  }
  return allowed;
}
