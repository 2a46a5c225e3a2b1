/**
 * The extension point for skills (SEP-2640) besides a folder: a source of skill entries whose files
 * it also serves through `resources/read` (a gateway's upstreams, your own catalog). The server
 * answers `skills/list` (every provider's entries, one paged listing) and `skills/get` (the first
 * provider that knows the URI) over them.
 */
import type { Skill } from '@modelcontextprotocol/server/ext/skills';
import type { ProviderContext, ResourceProvider } from '../catalog/content-provider.js';

/** A source of skills (`specificationVersion: 'v1'`); its files are read through its `readResource`. */
export interface SkillProvider extends ResourceProvider {
  /** Whether it has skills to serve now: the server declares the extension while any provider does. */
  servesSkills(): boolean;
  /** Its skill entries (each a complete manifest, as `skills/list` carries them). */
  listSkills(context: ProviderContext): Promise<readonly Skill[]> | readonly Skill[];
  /** The entry of the skill whose `SKILL.md` is at `uri`; `undefined` when it serves no such skill. */
  getSkill(uri: string, context: ProviderContext): Promise<Skill | undefined> | Skill | undefined;
}
