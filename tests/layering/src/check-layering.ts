/**
 * The layering guard: reads every workspace package's source imports and reports each one that
 * breaks the graph docs/architecture.md writes down — a package importing above its layer, into a
 * sibling's `src/` or a path its `exports` do not offer, a dependency its package.json does not
 * declare — and every import cycle, between files or between the folders of a package. Biome has no
 * cycle rule and tsc accepts all of these, so without this check they would only show in review.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import {
  allowedImports,
  allowedInTests,
  type LayerTable,
  LayerTableError,
  readLayerTable,
} from './layer-table.js';
import { type ImportRecord, readImports } from './read-imports.js';
import { cyclicComponents, shortestCycle } from './strongly-connected.js';
import { isExported, readWorkspacePackages, type WorkspacePackage } from './workspace-packages.js';

/** Which rule a finding breaks. */
export type LayeringRule =
  /** The layer table in the document is missing, malformed, incomplete or cyclic. */
  | 'layer-table'
  /** A package imports (or depends on) a workspace package its layer may not import. */
  | 'layer'
  /** An import reaches into another package's `src/`. */
  | 'sibling-src'
  /** An import names a subpath of a workspace package that its `exports` do not offer. */
  | 'deep-path'
  /** A relative import leaves its package. */
  | 'outside-package'
  /** A package imports a package its package.json does not declare. */
  | 'undeclared-dependency'
  /** A relative import names no file. */
  | 'unresolved-import'
  /** Files of one package import each other in a loop. */
  | 'file-cycle'
  /** Folders (or a folder and a file beside it) of one package import each other in a loop. */
  | 'folder-cycle'
  /** A known loop (`knownLoops`) that is no longer there as written: the list must shrink with the code. */
  | 'stale-known-loop';

/** One broken rule, where it is broken. */
export interface LayeringFinding {
  rule: LayeringRule;
  /** Relative to the root, with `/`. */
  file: string;
  /** 1-based. */
  line: number;
  message: string;
  /** For a cycle: the folder it is in and its members (files or entries), relative to that folder. */
  loop?: LoopMembers;
}

/** Where a loop is and what it is made of. */
export interface LoopMembers {
  /** The folder, relative to the root (`packages/server/src`). */
  folder: string;
  /** The files (file cycle) or the folder's entries (folder cycle, subfolders ending in `/`), sorted. */
  members: string[];
}

/**
 * A loop that is there today and tolerated until the code is sorted: matched by rule, folder and
 * exact members, so a loop that grows is reported again, and one that is gone fails as stale.
 */
export interface KnownLoop extends LoopMembers {
  rule: 'file-cycle' | 'folder-cycle';
  /** Why it is still there, and the cut that would end it. */
  why: string;
}

/** Options of {@link checkLayering}. */
export interface CheckLayeringOptions {
  /** The workspace root (holds pnpm-workspace.yaml). */
  root: string;
  /** The document holding the layer table, relative to the root. @default 'docs/architecture.md' */
  document?: string;
  /** The folder of each package whose files are checked. @default 'src' */
  sourceFolder?: string;
  /** Loops tolerated for now; each must still be there as written. @default [] */
  knownLoops?: readonly KnownLoop[];
  /** Where `knownLoops` is written, relative to the root, for a stale entry's message. */
  knownLoopsFile?: string;
}

const sourceExtensions = ['.ts', '.tsx', '.mts', '.cts'];
/** What a `.js`-style specifier is compiled from (NodeNext resolution names the output file). */
const compiledFrom: Record<string, string[]> = {
  '.js': ['.ts', '.tsx'],
  '.jsx': ['.tsx'],
  '.mjs': ['.mts'],
  '.cjs': ['.cts'],
};
const builtins = new Set(builtinModules);

/** `a/b` with `/` whatever the platform. */
const posix = (path: string) => path.split(sep).join('/');

/** Every source file under `folder` (absolute paths, sorted), declaration files included. */
function sourceFiles(folder: string): string[] {
  if (!existsSync(folder)) return [];
  const files: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') files.push(...sourceFiles(path));
    } else if (sourceExtensions.some((extension) => entry.name.endsWith(extension))) files.push(path);
  }
  return files.sort();
}

const isFile = (path: string) => existsSync(path) && statSync(path).isFile();

/** The file a relative specifier names, as NodeNext resolves it against sources; undefined if none. */
function resolveRelative(fromFile: string, specifier: string): string | undefined {
  const target = resolve(dirname(fromFile), specifier);
  const extension = Object.keys(compiledFrom).find((candidate) => target.endsWith(candidate));
  const candidates = extension
    ? [...(compiledFrom[extension] as string[]).map((source) => target.slice(0, -extension.length) + source)]
    : [];
  candidates.push(target, ...sourceExtensions.map((source) => target + source));
  candidates.push(...sourceExtensions.map((source) => join(target, `index${source}`)));
  return candidates.find(isFile);
}

/** `@scope/name` or `name` of a bare specifier, and the rest (`/sub/path`, or ''). */
function splitBareSpecifier(specifier: string): { name: string; subpath: string } {
  const parts = specifier.split('/');
  const length = specifier.startsWith('@') ? 2 : 1;
  return { name: parts.slice(0, length).join('/'), subpath: parts.slice(length).join('/') };
}

/** The `@types/` package that types `name` (`@scope/name` → `@types/scope__name`). */
const typesPackageOf = (name: string) =>
  `@types/${name.startsWith('@') ? name.slice(1).replace('/', '__') : name}`;

function isDeclared(pkg: WorkspacePackage, name: string, typeOnly: boolean): boolean {
  const fields = [pkg.dependencies, pkg.devDependencies, pkg.peerDependencies, pkg.optionalDependencies];
  if (fields.some((field) => name in field)) return true;
  return typeOnly && fields.some((field) => typesPackageOf(name) in field);
}

/** The 1-based line of `"name"` as a key in a package.json's text (1 when not found). */
function manifestLine(pkg: WorkspacePackage, name: string): number {
  const at = pkg.manifestText.indexOf(`"${name}":`);
  return at < 0 ? 1 : pkg.manifestText.slice(0, at).split('\n').length;
}

/** One import between two files of a package, kept for the cycle messages. */
interface FileEdge {
  line: number;
  typeOnly: boolean;
}

/** The import graph of one package's files (paths relative to the root). */
interface FileGraph {
  graph: Map<string, Set<string>>;
  edges: Map<string, FileEdge>;
}

const edgeKey = (from: string, to: string) => `${from}\0${to}`;

function describeStep(from: string, to: string, edges: Map<string, FileEdge>, base: string): string {
  const edge = edges.get(edgeKey(from, to)) as FileEdge;
  return `${posix(relative(base, from))}:${edge.line}${edge.typeOnly ? ' (type-only)' : ''}`;
}

/** A finding per loop among a package's files. */
function fileCycleFindings(files: FileGraph, sourceRoot: string): LayeringFinding[] {
  return cyclicComponents(files.graph).map((component) => {
    const [first] = component as [string];
    const cycle = shortestCycle(files.graph, first, new Set(component));
    const steps = cycle
      .slice(0, -1)
      .map((from, at) => describeStep(from, cycle[at + 1] as string, files.edges, sourceRoot));
    const more = component.length > cycle.length - 1 ? ` (${component.length} files in the loop)` : '';
    return {
      rule: 'file-cycle' as const,
      loop: {
        folder: sourceRoot,
        members: component.map((file) => posix(relative(sourceRoot, file))).sort(),
      },
      file: first,
      line: (files.edges.get(edgeKey(first, cycle[1] as string)) as FileEdge).line,
      message: `import cycle: ${steps.join(' → ')} → ${posix(relative(sourceRoot, first))}${more}. Move what both sides need into a file both can import one way.`,
    };
  });
}

/**
 * A finding per loop between the entries of one folder, a subfolder standing for everything in it:
 * `config/ ↔ server-auth.ts` when a file in `config/` imports `server-auth.ts` and `server-auth.ts`
 * imports a file in `config/`. Loops among plain files are the file cycles; only loops through a
 * subfolder are reported here.
 */
function folderCycleFindings(files: FileGraph, sourceRoot: string): LayeringFinding[] {
  const findings: LayeringFinding[] = [];
  const inSource = (folder: string) => folder === sourceRoot || folder.startsWith(`${sourceRoot}/`);
  const folders = new Set<string>([sourceRoot]);
  for (const file of files.graph.keys()) {
    for (let folder = dirname(file); inSource(folder); folder = dirname(folder)) folders.add(folder);
  }
  for (const folder of [...folders].sort()) {
    /** The entry of `folder` that holds `file` (`config/` for `folder/config/a.ts`), or undefined. */
    const entryOf = (file: string): string | undefined => {
      if (!file.startsWith(`${folder}/`)) return undefined;
      const [head, ...rest] = file.slice(folder.length + 1).split('/');
      return rest.length > 0 ? `${head}/` : head;
    };
    const graph = new Map<string, Set<string>>();
    /** One file → file import behind each entry → entry edge, to show. */
    const examples = new Map<string, { from: string; to: string }>();
    for (const [from, targets] of files.graph) {
      const fromEntry = entryOf(from);
      if (fromEntry === undefined) continue;
      if (!graph.has(fromEntry)) graph.set(fromEntry, new Set());
      for (const to of targets) {
        const toEntry = entryOf(to);
        if (toEntry === undefined || toEntry === fromEntry) continue;
        graph.get(fromEntry)?.add(toEntry);
        const key = edgeKey(fromEntry, toEntry);
        if (!examples.has(key)) examples.set(key, { from, to });
      }
    }
    for (const component of cyclicComponents(graph)) {
      if (!component.some((entry) => entry.endsWith('/'))) continue;
      const [first] = component as [string];
      const cycle = shortestCycle(graph, first, new Set(component));
      const steps = cycle
        .slice(0, -1)
        .map(
          (entry, at) =>
            examples.get(edgeKey(entry, cycle[at + 1] as string)) as { from: string; to: string },
        );
      const evidence = steps.map(
        ({ from, to }) => `${describeStep(from, to, files.edges, folder)} → ${posix(relative(folder, to))}`,
      );
      const [firstStep] = steps as [{ from: string; to: string }];
      const more = component.length > cycle.length - 1 ? `; the whole loop: ${component.join(', ')}` : '';
      findings.push({
        rule: 'folder-cycle',
        loop: { folder, members: [...component].sort() },
        file: firstStep.from,
        line: (files.edges.get(edgeKey(firstStep.from, firstStep.to)) as FileEdge).line,
        message: `folder-level loop in ${folder}: ${cycle.join(' → ')} (${evidence.join('; ')})${more}. Move what both sides need to one side, so that the folders import one way.`,
      });
    }
  }
  return findings;
}

/** The table's own problems: a workspace package without a row, a row naming no package, a loop. */
function tableFindings(
  table: LayerTable,
  packages: readonly WorkspacePackage[],
  document: string,
): LayeringFinding[] {
  const findings: LayeringFinding[] = [];
  const folders = new Set(packages.map((pkg) => pkg.folder));
  const issue = (line: number, message: string) =>
    findings.push({ rule: 'layer-table', file: document, line, message });
  for (const pkg of packages) {
    if (!table.edges.has(pkg.folder)) {
      issue(
        table.line,
        `workspace package ${pkg.folder} has no row: place it in the graph (the folders it may import).`,
      );
    }
  }
  for (const [owner, imports] of table.edges) {
    const line = table.rows.get(owner) as number;
    if (!folders.has(owner)) issue(line, `${owner} is no workspace package (pnpm-workspace.yaml).`);
    for (const name of [...imports, ...(table.testEdges.get(owner) ?? [])])
      if (!folders.has(name)) issue(line, `${owner} may import ${name}, which is no workspace package.`);
  }
  // Tests' edges count too: a devDependency is a build dependency (turbo's `^build`), and a loop
  // through one cannot be built.
  const everyEdge = new Map(
    [...table.edges].map(([key, value]) => [key, new Set([...value, ...(table.testEdges.get(key) ?? [])])]),
  );
  for (const component of cyclicComponents(everyEdge)) {
    issue(
      table.rows.get(component[0] as string) as number,
      `the graph has a loop: ${component.join(' ↔ ')}.`,
    );
  }
  return findings;
}

/** What the checks of one package need to know about the workspace. */
interface PackageContext {
  root: string;
  document: string;
  sourceFolder: string;
  pkg: WorkspacePackage;
  /** The package folders `pkg` may import (its row and, through it, theirs). */
  mayImport: ReadonlySet<string>;
  /** What its tests may use besides: its row's `(tests: …)` folders and what those may import. */
  mayUseInTests: ReadonlySet<string>;
  byName: ReadonlyMap<string, WorkspacePackage>;
  /** The package whose folder holds an absolute path. */
  packageAt(path: string): WorkspacePackage | undefined;
}

function layerMessage(context: PackageContext, target: WorkspacePackage): string {
  const { pkg, mayImport, mayUseInTests, document } = context;
  const testsOnly = mayUseInTests.has(target.folder)
    ? ` (${target.folder} is for its tests only: a devDependency, never imported from ${context.sourceFolder}/)`
    : '';
  return `${pkg.folder} may not import ${target.folder} (${target.name}): its layer imports ${[...mayImport].join(', ') || 'no workspace package'}${testsOnly} (the table under "Layering (one way)" in ${document}).`;
}

/**
 * Declared workspace dependencies keep the graph too: a dependency is an import waiting to happen.
 * devDependencies may also name what the row allows for tests.
 */
function manifestFindings(context: PackageContext): LayeringFinding[] {
  const { pkg } = context;
  const fields: Array<[Record<string, string>, ReadonlySet<string>]> = [
    [pkg.dependencies, context.mayImport],
    [pkg.devDependencies, context.mayUseInTests],
    [pkg.peerDependencies, context.mayImport],
    [pkg.optionalDependencies, context.mayImport],
  ];
  return fields.flatMap(([field, allowed]) =>
    Object.keys(field).flatMap((name) => {
      const target = context.byName.get(name);
      if (!target || target === pkg || allowed.has(target.folder)) return [];
      const file = `${pkg.folder}/package.json`;
      return [
        {
          rule: 'layer' as const,
          file,
          line: manifestLine(pkg, name),
          message: layerMessage(context, target),
        },
      ];
    }),
  );
}

/** What one import is: a file of the package (an edge of its graph), or broken rules. */
type ImportVerdict = { edgeTo: string } | { broken: Array<{ rule: LayeringRule; message: string }> };

/** A relative import: a file of the same package, or a way out of it. */
function checkRelativeImport(context: PackageContext, fromFile: string, specifier: string): ImportVerdict {
  const { root, pkg, sourceFolder } = context;
  const target = resolveRelative(fromFile, specifier);
  if (target === undefined) return { broken: [{ rule: 'unresolved-import', message: 'names no file.' }] };
  const owner = context.packageAt(target);
  if (owner === pkg) return { edgeTo: target };
  if (owner && target.startsWith(join(root, owner.folder, sourceFolder) + sep)) {
    const message = `reaches into ${owner.folder}/${sourceFolder}; import ${owner.name} (its public entry) instead.`;
    return { broken: [{ rule: 'sibling-src', message }] };
  }
  const message = `leaves ${pkg.folder} for ${posix(relative(root, target))}; a package imports only its own files and declared packages.`;
  return { broken: [{ rule: 'outside-package', message }] };
}

/** A package import: within its layer, through its `exports`, and declared. */
function checkPackageImport(context: PackageContext, record: ImportRecord): ImportVerdict {
  const { pkg, sourceFolder } = context;
  const broken: Array<{ rule: LayeringRule; message: string }> = [];
  const { name, subpath } = splitBareSpecifier(record.specifier);
  const target = context.byName.get(name);
  if (target) {
    if (target !== pkg && !context.mayImport.has(target.folder)) {
      broken.push({ rule: 'layer', message: layerMessage(context, target) });
    }
    if (subpath === sourceFolder || subpath.startsWith(`${sourceFolder}/`)) {
      const message = `reaches into ${target.folder}/${sourceFolder}; import ${target.name} (its public entry) instead.`;
      broken.push({ rule: 'sibling-src', message });
    } else if (!isExported(subpath ? `./${subpath}` : '.', target.exportedSubpaths)) {
      const message = `${target.name} exports ${target.exportedSubpaths.join(', ')}, not ./${subpath}.`;
      broken.push({ rule: 'deep-path', message });
    }
  }
  if (target !== pkg && !isDeclared(pkg, name, record.typeOnly)) {
    const message = `${name} is not in ${pkg.folder}/package.json (dependencies, peerDependencies, optionalDependencies or devDependencies).`;
    broken.push({ rule: 'undeclared-dependency', message });
  }
  return { broken };
}

function checkImport(context: PackageContext, fromFile: string, record: ImportRecord): ImportVerdict {
  const { specifier } = record;
  if (specifier.startsWith('.') || specifier.startsWith('/'))
    return checkRelativeImport(context, fromFile, specifier);
  if (specifier.startsWith('node:') || builtins.has(specifier.split('/')[0] as string)) return { broken: [] };
  return checkPackageImport(context, record);
}

/** Every import of one package's source files checked, then the loops of its file graph. */
function packageFindings(context: PackageContext): LayeringFinding[] {
  const { root, pkg, sourceFolder } = context;
  const findings = manifestFindings(context);
  const sourceRoot = join(root, pkg.folder, sourceFolder);
  const files: FileGraph = { graph: new Map(), edges: new Map() };
  for (const path of sourceFiles(sourceRoot)) {
    const file = posix(relative(root, path));
    const targets = files.graph.get(file) ?? new Set<string>();
    files.graph.set(file, targets);
    for (const record of readImports(path, readFileSync(path, 'utf8'))) {
      const verdict = checkImport(context, path, record);
      if ('broken' in verdict) {
        for (const { rule, message } of verdict.broken) {
          findings.push({ rule, file, line: record.line, message: `'${record.specifier}': ${message}` });
        }
        continue;
      }
      // The package's own files outside its sources (package.json, models) are no part of the graph.
      if (!verdict.edgeTo.startsWith(sourceRoot + sep)) continue;
      const to = posix(relative(root, verdict.edgeTo));
      targets.add(to);
      const key = edgeKey(file, to);
      const known = files.edges.get(key);
      // A value import anywhere makes the edge a value edge; the first line stands for it.
      if (!known) files.edges.set(key, { line: record.line, typeOnly: record.typeOnly });
      else if (!record.typeOnly) known.typeOnly = false;
    }
  }
  const sourceRootFromRoot = posix(relative(root, sourceRoot));
  findings.push(
    ...fileCycleFindings(files, sourceRootFromRoot),
    ...folderCycleFindings(files, sourceRootFromRoot),
  );
  return findings;
}

/**
 * Checks the workspace at `options.root` against the layer table of its architecture document.
 * Returns every finding, in file order; an empty list means the imports keep the graph.
 */
export function checkLayering(options: CheckLayeringOptions): LayeringFinding[] {
  const root = resolve(options.root);
  const document = options.document ?? 'docs/architecture.md';
  const sourceFolder = options.sourceFolder ?? 'src';
  const packages = readWorkspacePackages(root);
  let table: LayerTable;
  try {
    table = readLayerTable(readFileSync(join(root, document), 'utf8'));
  } catch (error) {
    if (!(error instanceof LayerTableError)) throw error;
    return [{ rule: 'layer-table', file: document, line: error.line, message: error.message }];
  }
  const allowed = allowedImports(table);
  const inTests = allowedInTests(table);
  const byName = new Map(packages.map((pkg) => [pkg.name, pkg]));
  const packageAt = (path: string) =>
    packages.find((pkg) => path === join(root, pkg.folder) || path.startsWith(join(root, pkg.folder) + sep));
  const findings = [
    ...tableFindings(table, packages, document),
    ...packages.flatMap((pkg) =>
      packageFindings({
        root,
        document,
        sourceFolder,
        pkg,
        mayImport: allowed.get(pkg.folder) ?? new Set(),
        mayUseInTests: inTests.get(pkg.folder) ?? new Set(),
        byName,
        packageAt,
      }),
    ),
  ];
  return withoutKnownLoops(findings, options).sort((x, y) => x.file.localeCompare(y.file) || x.line - y.line);
}

const sameLoop = (finding: LayeringFinding, known: KnownLoop) =>
  finding.rule === known.rule &&
  finding.loop?.folder === known.folder &&
  finding.loop.members.join('\n') === [...known.members].sort().join('\n');

/** The findings less the known loops, plus one finding per known loop that is no longer there. */
function withoutKnownLoops(findings: LayeringFinding[], options: CheckLayeringOptions): LayeringFinding[] {
  const known = options.knownLoops ?? [];
  const kept = findings.filter((finding) => !known.some((loop) => sameLoop(finding, loop)));
  for (const loop of known) {
    if (findings.some((finding) => sameLoop(finding, loop))) continue;
    kept.push({
      rule: 'stale-known-loop',
      file: options.knownLoopsFile ?? loop.folder,
      line: 1,
      message: `the known ${loop.rule} in ${loop.folder} (${loop.members.join(', ')}) is not there as written: remove the entry, or write the loop as it now is.`,
    });
  }
  return kept;
}

/** `file:line rule: message`, the way editors and terminals link to a place. */
export function formatFinding(finding: LayeringFinding): string {
  return `${finding.file}:${finding.line} ${finding.rule}: ${finding.message}`;
}
