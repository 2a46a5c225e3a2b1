// biome-ignore-all lint/suspicious/noTemplateCurlyInString: host reference syntax (${env:VAR}, ${workspaceFolder}) is written on purpose
/**
 * Environment references across hosts. Switchboard's own syntax is `${VAR}` (with `${VAR:-default}`
 * and `$$` for a literal `$`); each host spells a reference its own way (`${env:VAR}`, `$VAR`,
 * `${{ secrets.VAR }}`, a list of variable names…). Import turns a host's spelling into ours, export
 * turns ours into the host's; a reference is never expanded on the way, so no secret is copied
 * out of the environment into a file.
 */

/** One piece of a value in Switchboard's syntax: literal text or a reference. */
export type ValuePart = { text: string } | { variable: string; fallback?: string };

const referencePattern = /\$\$|\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?:(:?-)([^}]*))?\}/g;

/** Splits a value in Switchboard's syntax into literal text and references. */
export function splitReferences(value: string): ValuePart[] {
  const parts: ValuePart[] = [];
  let last = 0;
  let text = '';
  for (const match of value.matchAll(referencePattern)) {
    text += value.slice(last, match.index);
    last = match.index + match[0].length;
    if (match[0] === '$$') {
      text += '$';
      continue;
    }
    if (text !== '') parts.push({ text });
    text = '';
    const [, variable, operator, fallback] = match;
    parts.push(
      operator === undefined
        ? { variable: variable as string }
        : { variable: variable as string, fallback: fallback ?? '' },
    );
  }
  text += value.slice(last);
  if (text !== '') parts.push({ text });
  return parts;
}

/** True when a value holds at least one reference. */
export function hasReference(value: string): boolean {
  return splitReferences(value).some((part) => 'variable' in part);
}

/** `${env:VAR}` (VS Code, Cursor, Windsurf) → `${VAR}`: one spelling inside Switchboard. */
export function fromEnvColonReferences(value: string): string {
  return value.replace(/\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g, '${$1}');
}

/** Gemini CLI's bare `$VAR` → `${VAR}` (its `${VAR}` is already ours). */
export function fromBareReferences(value: string): string {
  const text = fromEnvColonReferences(value);
  return text.replace(/\$([A-Za-z_][A-Za-z0-9_]*)/g, (whole, name: string, offset: number) =>
    text[offset - 1] === '$' ? whole : `\${${name}}`,
  );
}

/** Continue's `${{ secrets.VAR }}` → `${VAR}`. */
export function fromContinueSecrets(value: string): string {
  return value.replace(/\$\{\{\s*secrets\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, '${$1}');
}

/** The name of an environment variable derived from a server and a key (`docs` + `Authorization` → `DOCS_AUTHORIZATION`). */
export function variableNameFor(...parts: string[]): string {
  const name = parts
    .join('_')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase();
  return /^[0-9]/.test(name) ? `_${name}` : name;
}

const secretName = /(bearer|basic|token|key|secret|password|passwd|auth|cookie|credential|session|pat$)/i;

/** True for an env or header name whose value is a secret (tokens, keys, passwords, cookies). */
export function isSecretName(name: string): boolean {
  return secretName.test(name);
}
