/**
 * The release's version step, tried on a copy: the workspace's package.json files, pnpm-workspace.yaml
 * and `.changeset/` (pending changesets included, committed or not) copied into a temporary folder,
 * where `changeset version` bumps the versions and writes each package's CHANGELOG.md. The
 * repository itself is never versioned here (the release does that once, at its time).
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { workspaceRoot } from './publishable-packages.js';
import { type CommandResult, runCommand } from './run-command.js';

const require = createRequire(import.meta.url);

/** A workspace package after `changeset version` ran on the copy. */
export interface VersionedPackage {
  name: string;
  folder: string;
  private: boolean;
  versionBefore: string;
  versionAfter: string;
  /** Its CHANGELOG.md after the run, if it has one. */
  changelog: string | undefined;
  /** Its `@switchboard/*` dependencies after the run (`workspace:^` stays as written). */
  internalDependencies: Record<string, string>;
}

/** The folders of workspace packages: every child of packages/, apps/ and tests/ with a package.json. */
function workspaceFolders(): string[] {
  return ['packages', 'apps', 'tests'].flatMap((parent) =>
    existsSync(join(workspaceRoot, parent))
      ? readdirSync(join(workspaceRoot, parent))
          .map((name) => `${parent}/${name}`)
          .filter((folder) => existsSync(join(workspaceRoot, folder, 'package.json')))
      : [],
  );
}

function readManifest(path: string): Record<string, any> {
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, any>;
}

/** Runs `changeset version` on a copy of the workspace's manifests in `dir`. */
export async function changesetVersionOnCopy(
  dir: string,
): Promise<{ result: CommandResult; packages: VersionedPackage[] }> {
  mkdirSync(dir, { recursive: true });
  for (const file of ['package.json', 'pnpm-workspace.yaml'])
    cpSync(join(workspaceRoot, file), join(dir, file));
  cpSync(join(workspaceRoot, '.changeset'), join(dir, '.changeset'), { recursive: true });
  const folders = workspaceFolders();
  const before = new Map<string, string>();
  for (const folder of folders) {
    mkdirSync(join(dir, folder), { recursive: true });
    cpSync(join(workspaceRoot, folder, 'package.json'), join(dir, folder, 'package.json'));
    before.set(folder, String(readManifest(join(dir, folder, 'package.json')).version));
  }
  const changeset = join(dirname(require.resolve('@changesets/cli/package.json')), 'bin.js');
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.toLowerCase().startsWith('npm_')) env[key] = value;
  }
  const result = await runCommand(process.execPath, [changeset, 'version'], {
    cwd: dir,
    env: { ...env, NO_COLOR: '1' },
    timeoutMs: 180_000,
  });
  const packages = folders.map((folder) => {
    const manifest = readManifest(join(dir, folder, 'package.json'));
    const changelog = join(dir, folder, 'CHANGELOG.md');
    const internal = Object.fromEntries(
      Object.entries({ ...manifest.dependencies, ...manifest.optionalDependencies } as Record<
        string,
        string
      >).filter(([name]) => name.startsWith('@switchboard/')),
    );
    return {
      name: String(manifest.name),
      folder,
      private: manifest.private === true,
      versionBefore: before.get(folder) as string,
      versionAfter: String(manifest.version),
      changelog: existsSync(changelog) ? readFileSync(changelog, 'utf8') : undefined,
      internalDependencies: internal,
    };
  });
  return { result, packages };
}
