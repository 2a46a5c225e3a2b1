/**
 * `resources/directory/read` (SEP-2640) answered from the skill entries themselves: an entry lists
 * every file of its skill (uri, size, digest), so the direct children of a skill's root or of a
 * folder inside it follow from the URIs, whichever source (a folder, a gateway's upstreams) served
 * the entry, and no source has to implement directory reads. Entries whose files are `dynamic` are
 * not listed (their files are known only to their source).
 */
import type { DirectoryResource, Skill } from '@modelcontextprotocol/server/ext/skills';

/** The MIME type of a directory child (SEP-2640). */
const directoryMimeType = 'inode/directory';
const manifestName = 'SKILL.md';

/** The direct children of directory `uri` in `skills`; `undefined` when `uri` is no directory of theirs. */
export function skillDirectoryChildren(
  uri: string,
  skills: readonly Skill[],
): DirectoryResource[] | undefined {
  const directory = uri.endsWith('/') ? uri.slice(0, -1) : uri;
  for (const skill of skills) {
    if (!Array.isArray(skill.resources) || !skill.uri.endsWith(`/${manifestName}`)) continue;
    const root = skill.uri.slice(0, -manifestName.length - 1);
    if (directory !== root && !directory.startsWith(`${root}/`)) continue;
    const children = childrenOf(directory, skill.resources);
    if (children !== undefined) return children;
  }
  return undefined;
}

/** The children of `directory` among a skill's files; `undefined` when no file is inside it. */
function childrenOf(
  directory: string,
  files: ReadonlyArray<{ uri: string; size: number }>,
): DirectoryResource[] | undefined {
  const children = new Map<string, DirectoryResource>();
  for (const file of files) {
    if (!file.uri.startsWith(`${directory}/`)) continue;
    const rest = file.uri.slice(directory.length + 1);
    const slash = rest.indexOf('/');
    if (slash < 0) {
      children.set(rest, { uri: file.uri, name: decodeName(rest), size: file.size });
    } else {
      const name = rest.slice(0, slash);
      if (!children.has(name))
        children.set(name, {
          uri: `${directory}/${name}`,
          name: decodeName(name),
          mimeType: directoryMimeType,
        });
    }
  }
  if (children.size === 0) return undefined;
  // One order for every page and every replica: code-unit order of the URIs.
  return [...children.values()].sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
}

function decodeName(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
