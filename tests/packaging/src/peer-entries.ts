/**
 * Entries that exist for one optional peer — an agent framework's adapter, the Redis cluster state —
 * and load it as they load: everyone who imports such an entry has installed that peer. Without
 * it, the entry may fail to load, and its types may fail to compile, only for want of that peer
 * (`Cannot find package 'ai'`). Every other entry must load and compile with no optional peer
 * installed; an entry missing here that needs a peer fails the suite, which says what to do.
 *
 * The peers are not installed by the suite: the frameworks' own declarations do not compile with
 * `skipLibCheck: false` (`ai` needs the DOM lib, `@mastra/core` 1.71 has hundreds of errors of its
 * own), and the client's and server's own tests run the adapters and the Redis state with them.
 */
export const peerEntries: Readonly<Record<string, readonly string[]>> = {
  '@switchboard/client/ai-sdk': ['ai'],
  '@switchboard/client/langchain': ['@langchain/core', '@langchain/langgraph'],
  '@switchboard/client/openai-agents': ['@openai/agents'],
  '@switchboard/client/mastra': ['@mastra/core'],
  '@switchboard/server/redis': ['ioredis'],
};

/** Whether `module` (`@langchain/core/tools`) is one of `peers` or a subpath of one. */
export function isPeerModule(module: string, peers: readonly string[]): boolean {
  return peers.some((peer) => module === peer || module.startsWith(`${peer}/`));
}

/** The package a "Cannot find package 'x'" / "Cannot find module 'x'" load error names, if any. */
export function missingPackageOf(loadError: string): string | undefined {
  if (!/^(ERR_MODULE_NOT_FOUND|MODULE_NOT_FOUND)\b/.test(loadError)) return undefined;
  return /Cannot find (?:package|module) '([^']+)'/.exec(loadError)?.[1];
}
