/**
 * Name globs of tool names (`*` any run of characters, `?` one character, everything else
 * literal), as approval rules and tool filters spell them. One compiler, so a glob means the same
 * in `approval.allow` as in `includeTools`.
 */

/** Compiles a name glob to an anchored regular expression. */
export function compileNameGlob(glob: string): RegExp {
  const source = glob
    .split('')
    .map((character) => {
      if (character === '*') return '.*';
      if (character === '?') return '.';
      return character.replace(/[\\^$.|+()[\]{}]/g, '\\$&');
    })
    .join('');
  return new RegExp(`^${source}$`);
}
