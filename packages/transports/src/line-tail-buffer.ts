/**
 * The bounded tail of a stdio server's stderr: what the transport quotes when the server fails to
 * start or exits, since those last lines usually say why (a missing module, a bad flag), without
 * holding the whole log of a long-running server.
 */

/** Options of a {@link LineTailBuffer}. */
export interface LineTailBufferOptions {
  /** Most lines kept. @default 50 */
  maxLines?: number;
  /** Most characters kept over all lines. @default 8192 */
  maxCharacters?: number;
}

/**
 * Keeps the last lines written to a stream (a server's stderr), bounded in lines and characters, so
 * error messages can quote what a server said just before it failed without holding its whole log.
 */
export class LineTailBuffer {
  private readonly lines: string[] = [];
  private characters = 0;
  private readonly maxLines: number;
  private readonly maxCharacters: number;

  constructor(options: LineTailBufferOptions = {}) {
    this.maxLines = options.maxLines ?? 50;
    this.maxCharacters = options.maxCharacters ?? 8192;
  }

  /** Appends one line, dropping the oldest lines beyond the bounds. */
  push(line: string): void {
    const kept = line.length > this.maxCharacters ? line.slice(line.length - this.maxCharacters) : line;
    this.lines.push(kept);
    this.characters += kept.length;
    while (this.lines.length > this.maxLines || this.characters > this.maxCharacters) {
      const dropped = this.lines.shift();
      this.characters -= dropped?.length ?? 0;
    }
  }

  /** The kept lines joined with newlines (empty when nothing was written). */
  toString(): string {
    return this.lines.join('\n');
  }
}
