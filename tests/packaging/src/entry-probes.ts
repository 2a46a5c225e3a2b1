/**
 * Loads every entry of a package the two ways a user's code does, from a fresh process in the
 * install's folder: `require()` in a CommonJS script (Node ≥ 20.19 loads an ES module graph
 * synchronously, unless it uses top-level await), and `import()` in an ES module script, which then
 * requires each entry again to see that both give the same module (one copy of every module-level
 * registry, no dual-package hazard).
 */
import type { InstalledProject } from './install-project.js';
import type { PackageEntry } from './package-entries.js';
import { describeFailure, runCommand, succeeded } from './run-command.js';

/** How one entry loaded. */
export interface EntryProbe {
  specifier: string;
  /** Names it exports, or undefined when loading failed. */
  exportNames: string[] | undefined;
  /** `code: message` of the failure. */
  error: string | undefined;
}

/** The two ways of loading, each entry's outcome, and what the processes wrote to stderr. */
export interface EntryProbes {
  required: EntryProbe[];
  imported: EntryProbe[];
  /** For each specifier: `require()` after `import()` gave the very same namespace object. */
  sameModule: Record<string, boolean>;
  /** stderr of the two processes (a warning there is a user's too). */
  stderr: string;
}

const requireScript = `
const results = [];
for (const specifier of JSON.parse(process.argv[1])) {
  try {
    results.push({ specifier, exportNames: Object.keys(require(specifier)).sort() });
  } catch (error) {
    results.push({ specifier, error: \`\${error.code ?? error.name}: \${String(error.message).split('\\n')[0]}\` });
  }
}
console.log(JSON.stringify(results));
`;

const importScript = `
import { createRequire } from 'node:module';
const require = createRequire(process.cwd() + '/');
const results = [];
const sameModule = {};
for (const specifier of JSON.parse(process.argv[1])) {
  try {
    const namespace = await import(specifier);
    results.push({ specifier, exportNames: Object.keys(namespace).sort() });
    try {
      sameModule[specifier] = require(specifier) === namespace;
    } catch {
      sameModule[specifier] = false;
    }
  } catch (error) {
    results.push({ specifier, error: \`\${error.code ?? error.name}: \${String(error.message).split('\\n')[0]}\` });
  }
}
console.log(JSON.stringify({ results, sameModule }));
`;

function parseLastLine<T>(stdout: string): T | undefined {
  const line = stdout.trim().split('\n').pop();
  try {
    return line ? (JSON.parse(line) as T) : undefined;
  } catch {
    return undefined;
  }
}

/** Requires and imports `entries` in the install's folder, on its Node. */
export async function probeEntries(
  project: InstalledProject,
  entries: readonly PackageEntry[],
): Promise<EntryProbes> {
  const specifiers = JSON.stringify(entries.map((entry) => entry.specifier));
  const options = { cwd: project.root, env: project.runtime.env, timeoutMs: 120_000 };
  const [required, imported] = await Promise.all([
    runCommand(project.runtime.node, ['--input-type=commonjs', '-e', requireScript, specifiers], options),
    runCommand(project.runtime.node, ['--input-type=module', '-e', importScript, specifiers], options),
  ]);
  const requiredResults = parseLastLine<EntryProbe[]>(required.stdout);
  const importedResults = parseLastLine<{ results: EntryProbe[]; sameModule: Record<string, boolean> }>(
    imported.stdout,
  );
  if (!succeeded(required) || !requiredResults)
    throw new Error(`The require probe failed: ${describeFailure(required)}`);
  if (!succeeded(imported) || !importedResults)
    throw new Error(`The import probe failed: ${describeFailure(imported)}`);
  return {
    required: requiredResults,
    imported: importedResults.results,
    sameModule: importedResults.sameModule,
    stderr: `${required.stderr}${imported.stderr}`.trim(),
  };
}
