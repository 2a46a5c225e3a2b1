/**
 * A dotenv reader for a server's `envFile` (VS Code's field): `KEY=value` lines, `export `
 * prefixes, `#` comments, single or double quotes (double quotes understand \n). No expansion:
 * a value is used as written, like VS Code does.
 */

/** Parses dotenv text into variables. Lines that are not assignments are ignored. */
export function parseEnvFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const pattern = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)?$/;
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  for (let index = 0; index < lines.length; index++) {
    const match = pattern.exec(lines[index] as string);
    if (!match) continue;
    const key = match[1] as string;
    let value = (match[2] ?? '').trim();
    const quote = value[0];
    if (quote === '"' || quote === "'") {
      // A quoted value may span lines until its closing quote.
      let body = value.slice(1);
      while (!body.includes(quote) && index + 1 < lines.length) {
        index++;
        body += `\n${lines[index]}`;
      }
      const close = body.indexOf(quote);
      value = close === -1 ? body : body.slice(0, close);
      if (quote === '"') value = value.replace(/\\n/g, '\n').replace(/\\r/g, '\r').replace(/\\t/g, '\t');
    } else {
      const comment = value.search(/\s#/);
      if (comment !== -1) value = value.slice(0, comment).trimEnd();
    }
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
