/**
 * What keeps secrets off the page: every value sent to it (results, resources, prompts, the
 * questions servers ask, error messages) passes through one redactor that knows the secrets of
 * every server of the session — a value of one server's env echoed by another is masked too.
 */
import { createRedactor, type ServerEntry, serverSecrets } from '@switchboard/client';

/** Masks the session's secrets in text and in JSON values. */
export interface UiRedaction {
  /** Learns the secrets of a server entry (config or added in the page). */
  addServer(entry: ServerEntry): void;
  text(text: string): string;
  /** A redacted copy of a JSON value (strings and object keys masked); what JSON cannot carry is dropped. */
  value<T>(value: T): T;
}

/** Creates the session's redaction. */
export function createUiRedaction(): UiRedaction {
  const redactor = createRedactor();
  return {
    addServer(entry) {
      redactor.add(serverSecrets(entry));
    },
    text: (text) => redactor.redact(text),
    value<T>(value: T): T {
      if (value === undefined) return value;
      const text = JSON.stringify(value, (_key, item: unknown) => {
        if (typeof item === 'string') return redactor.redact(item);
        if (typeof item !== 'object' || item === null || Array.isArray(item)) return item;
        const record = item as Record<string, unknown>;
        if (Object.keys(record).every((key) => redactor.redact(key) === key)) return item;
        return Object.fromEntries(
          Object.entries(record).map(([key, entry]) => [redactor.redact(key), entry]),
        );
      });
      return (text === undefined ? undefined : JSON.parse(text)) as T;
    },
  };
}
