/**
 * What kind of thing a tool does — read, write, exec or admin — for approval prompts, audit logs
 * and UIs. Annotations come first; then the words of the tool's name; then its description.
 *
 * Ambiguous words that are often nouns (`tag`, `post`, `commit`, `start`) are left out of the verb
 * lists on purpose: `list_tags` must not become a write because `tag` can be a verb.
 *
 * Keyword rules, applied to the name's words (split on `_`, `-`, `.`, `/`, spaces and camelCase,
 * lower-cased, with a plural/-ing/-ed ending also tried):
 * 1. an exec verb (`run_query`, `execute_command`) → exec;
 * 2. an admin verb (`grant_access`, `deploy_app`) → admin;
 * 3. a write verb → admin when an admin noun is present (`update_user_role`), else write;
 * 4. a read verb → read (`get_config` reads configuration, it does not change it);
 * 5. no verb: an admin noun → admin (`permissions`), an exec noun → exec (`shell`, `bash`).
 * When the name says nothing, the description's first keyword verb decides by the same table.
 * When nothing matches, the tool is `write`: MCP assumes an unannotated tool is not read-only.
 */
import type { ToolAnnotations } from './tool-definition.js';

/** The kinds of tools, from least to most privileged (roughly). */
export type ToolKind = 'read' | 'write' | 'exec' | 'admin';

/** The keyword table {@link classifyToolKind} uses (all lower case). */
export interface ToolKindKeywords {
  /** Verbs of tools that only look. */
  read: readonly string[];
  /** Verbs of tools that change data. */
  write: readonly string[];
  /** Verbs of tools that run code or commands. */
  exec: readonly string[];
  /** Nouns that make a tool about code execution (`shell`, `script`). */
  execNouns: readonly string[];
  /** Verbs of administrative actions. */
  admin: readonly string[];
  /** Nouns that make a changing tool administrative (`user`, `role`, `permission`). */
  adminNouns: readonly string[];
}

/** The default keyword table (in the spirit of Mayros's classifier). */
export const toolKindKeywords: ToolKindKeywords = Object.freeze({
  read: Object.freeze([
    'get',
    'list',
    'read',
    'search',
    'fetch',
    'query',
    'find',
    'show',
    'describe',
    'view',
    'lookup',
    'inspect',
    'check',
    'count',
    'browse',
    'retrieve',
    'load',
    'download',
    'stat',
    'info',
    'status',
    'explain',
    'summarize',
    'summarise',
    'preview',
    'echo',
    'print',
    'head',
    'tail',
    'cat',
    'grep',
    'peek',
    'watch',
    'compare',
    'diff',
    'calculate',
    'compute',
    'analyze',
    'analyse',
    'validate',
    'look',
    'see',
    'return',
    'tree',
    'ls',
  ]),
  write: Object.freeze([
    'create',
    'update',
    'write',
    'edit',
    'delete',
    'move',
    'set',
    'add',
    'remove',
    'rename',
    'insert',
    'put',
    'patch',
    'post',
    'save',
    'upload',
    'append',
    'modify',
    'replace',
    'copy',
    'mkdir',
    'make',
    'clear',
    'reset',
    'send',
    'publish',
    'merge',
    'push',
    'close',
    'import',
    'toggle',
    'enable',
    'disable',
    'assign',
    'submit',
    'cancel',
    'drop',
    'truncate',
    'purge',
    'destroy',
    'erase',
    'upsert',
    'register',
    'unregister',
    'unlink',
    'pay',
    'transfer',
    'fill',
    'click',
    'navigate',
  ]),
  exec: Object.freeze([
    'run',
    'exec',
    'execute',
    'eval',
    'evaluate',
    'spawn',
    'launch',
    'invoke',
    'interpret',
    'kill',
  ]),
  execNouns: Object.freeze([
    'shell',
    'command',
    'cmd',
    'script',
    'bash',
    'terminal',
    'python',
    'javascript',
    'code',
    'sql',
    'powershell',
    'repl',
  ]),
  admin: Object.freeze([
    'admin',
    'administer',
    'grant',
    'revoke',
    'deploy',
    'install',
    'uninstall',
    'provision',
    'sudo',
    'chmod',
    'chown',
    'impersonate',
    'ban',
    'suspend',
    'promote',
    'authorize',
    'authorise',
  ]),
  adminNouns: Object.freeze([
    'admin',
    'administrator',
    'config',
    'configuration',
    'permission',
    'role',
    'user',
    'policy',
    'secret',
    'credential',
    'acl',
    'privilege',
    'setting',
    'account',
    'iam',
    'tenant',
    'billing',
    'token',
  ]),
}) as ToolKindKeywords;

/** The part of a tool {@link classifyToolKind} looks at (a `RegisteredTool` or an MCP tool fits). */
export interface ClassifiableTool {
  /** Public or original name; `originalName` is preferred when both are present. */
  name: string;
  originalName?: string;
  description?: string;
  annotations?: ToolAnnotations;
}

/** Options of {@link classifyToolKind}. */
export interface ClassifyToolKindOptions {
  /** Words added to the default table (merged, not replacing it). @default {} */
  keywords?: Partial<ToolKindKeywords>;
}

interface KeywordSets {
  read: Set<string>;
  write: Set<string>;
  exec: Set<string>;
  execNouns: Set<string>;
  admin: Set<string>;
  adminNouns: Set<string>;
}

const tableKeys = ['read', 'write', 'exec', 'execNouns', 'admin', 'adminNouns'] as const;

function buildSets(extra?: Partial<ToolKindKeywords>): KeywordSets {
  const sets = {} as KeywordSets;
  for (const key of tableKeys) {
    sets[key] = new Set([
      ...toolKindKeywords[key],
      ...(extra?.[key] ?? []).map((word) => word.toLowerCase()),
    ]);
  }
  return sets;
}

const defaultSets = buildSets();

/** Splits `createIssue`, `create_issue`, `mcp__gh__create-issue`, `a.b/c d` into lower-case words. */
export function toolNameWords(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
}

/** The word and its likely stems, so `lists`, `listing`, `deleted`, `searches` match their verb. */
function forms(word: string): string[] {
  const result = [word];
  if (word.length > 3 && word.endsWith('s')) result.push(word.slice(0, -1));
  if (word.length > 4 && word.endsWith('es')) result.push(word.slice(0, -2));
  if (word.length > 5 && word.endsWith('ing')) result.push(word.slice(0, -3), `${word.slice(0, -3)}e`);
  if (word.length > 4 && word.endsWith('ed')) result.push(word.slice(0, -2), word.slice(0, -1));
  return result;
}

function matches(word: string, set: Set<string>): boolean {
  return forms(word).some((form) => set.has(form));
}

type Verb = 'read' | 'write' | 'exec' | 'admin';

function verbOf(word: string, sets: KeywordSets): Verb | undefined {
  // A word that is both (e.g. `admin`) counts as its most privileged meaning.
  if (matches(word, sets.exec)) return 'exec';
  if (matches(word, sets.admin)) return 'admin';
  if (matches(word, sets.write)) return 'write';
  if (matches(word, sets.read)) return 'read';
  return undefined;
}

function fromName(words: string[], sets: KeywordSets): ToolKind | undefined {
  const verbs = new Set(words.map((word) => verbOf(word, sets)));
  const adminNoun = words.some((word) => matches(word, sets.adminNouns));
  const execNoun = words.some((word) => matches(word, sets.execNouns));
  if (verbs.has('exec')) return 'exec';
  if (verbs.has('admin')) return 'admin';
  if (verbs.has('write')) return adminNoun ? 'admin' : 'write';
  if (verbs.has('read')) return 'read';
  if (adminNoun) return 'admin';
  if (execNoun) return 'exec';
  return undefined;
}

function fromDescription(words: string[], sets: KeywordSets): ToolKind | undefined {
  // Descriptions are prose: the first action word usually says what the tool does ("Read the
  // contents of a file..."); later ones describe details and errors.
  for (const word of words) {
    const verb = verbOf(word, sets);
    if (verb === 'write') return words.some((other) => matches(other, sets.adminNouns)) ? 'admin' : 'write';
    if (verb) return verb;
  }
  return undefined;
}

/**
 * Classifies a tool as `read`, `write`, `exec` or `admin`: `readOnlyHint: true` → read; otherwise
 * name keywords, then description keywords (see the module comment for the rules); a keyword
 * verdict of `read` is raised to `write` when annotations say the tool is not read-only or is
 * destructive; with no signal at all, `write`.
 */
export function classifyToolKind(tool: ClassifiableTool, options: ClassifyToolKindOptions = {}): ToolKind {
  const annotations = tool.annotations;
  if (annotations?.readOnlyHint === true) return 'read';
  const sets = options.keywords ? buildSets(options.keywords) : defaultSets;
  const kind =
    fromName(toolNameWords(tool.originalName ?? tool.name ?? ''), sets) ??
    fromDescription(toolNameWords(tool.description ?? ''), sets) ??
    'write';
  if (kind === 'read' && (annotations?.readOnlyHint === false || annotations?.destructiveHint === true)) {
    return 'write';
  }
  return kind;
}
