/**
 * A native addon that is installed but cannot be loaded, told in words a user can act on: which
 * package, why (built for another Node.js, or never built), and the command that fixes it. The
 * usual cause is switching Node versions after the install: an addon built against one Node ABI
 * (`NODE_MODULE_VERSION`) cannot be loaded by another. Recognised by the error's code and fields
 * (`ERR_DLOPEN_FAILED` from Node's loader; the `tries` list of the `bindings` package when no
 * build exists); the ABI the addon was built for is only in the loader's message, so it is read
 * from there when present, as a detail.
 */

/** Why an addon could not be loaded. */
export type NativeAddonFailureKind = 'abi-mismatch' | 'not-loadable' | 'not-built';

/** A native addon's load failure, described. */
export interface NativeAddonFailure {
  /** The npm package whose addon failed. */
  package: string;
  kind: NativeAddonFailureKind;
  /** The Node ABI (`NODE_MODULE_VERSION`) the addon was built for, when the loader said. */
  addonAbi?: number;
  /** This Node's ABI (`process.versions.modules`). */
  nodeAbi?: number;
  /** The command that rebuilds it. */
  rebuild: string;
  /** One sentence: what is wrong and what to run. */
  message: string;
}

/** Options of {@link describeNativeAddonFailure}. */
export interface NativeAddonFailureOptions {
  /** The folder the package is installed in, to name in the message. @default not named */
  installedAt?: string;
}

function fieldOf(error: unknown, name: string): unknown {
  return typeof error === 'object' && error !== null ? (error as Record<string, unknown>)[name] : undefined;
}

/** The ABI numbers Node's loader names, in its order: the addon's, then its own. */
function abisNamed(error: unknown): number[] {
  const message = fieldOf(error, 'message');
  if (typeof message !== 'string') return [];
  return [...message.matchAll(/NODE_MODULE_VERSION (\d+)/g)].map((match) => Number(match[1]));
}

/**
 * Describes `error`, thrown while loading `packageName`'s native addon, when it is such a failure
 * (undefined for any other error: a missing package, a failing call into a loaded addon).
 */
export function describeNativeAddonFailure(
  error: unknown,
  packageName: string,
  options: NativeAddonFailureOptions = {},
): NativeAddonFailure | undefined {
  const rebuild = `npm rebuild ${packageName}`;
  const where =
    options.installedAt === undefined
      ? ' (in the project that installed it; add -g for a global install)'
      : ` (in the project that installed it, ${options.installedAt}; add -g for a global install)`;
  const modules = Number(globalThis.process?.versions?.modules);
  const nodeAbi = Number.isInteger(modules) ? modules : undefined;
  const abis = { ...(nodeAbi !== undefined ? { nodeAbi } : {}) };
  if (Array.isArray(fieldOf(error, 'tries'))) {
    return {
      package: packageName,
      kind: 'not-built',
      ...abis,
      rebuild,
      message: `${packageName} is installed but its native addon was never built (its install script did not run, e.g. --ignore-scripts): run ${rebuild}${where}.`,
    };
  }
  if (fieldOf(error, 'code') !== 'ERR_DLOPEN_FAILED') return undefined;
  const [addonAbi] = abisNamed(error);
  if (addonAbi !== undefined && addonAbi !== nodeAbi) {
    return {
      package: packageName,
      kind: 'abi-mismatch',
      addonAbi,
      ...abis,
      rebuild,
      message: `${packageName} was built for another Node.js (ABI ${addonAbi}, this is ${nodeAbi ?? 'unknown'}, Node ${globalThis.process?.versions?.node ?? '?'}): run ${rebuild}${where}.`,
    };
  }
  const reason = fieldOf(error, 'message');
  return {
    package: packageName,
    kind: 'not-loadable',
    ...abis,
    rebuild,
    message: `${packageName}'s native addon cannot be loaded by this Node.js${
      typeof reason === 'string' ? ` (${reason.split('\n')[0]})` : ''
    }: run ${rebuild}${where}.`,
  };
}
