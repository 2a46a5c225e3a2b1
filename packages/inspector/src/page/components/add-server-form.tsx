/**
 * Adds a server for this session (nothing is written to a config file): a remote URL with
 * optional headers, or a local command with its arguments (one per line) and environment.
 */
import { useState } from 'preact/hooks';
import { errorText } from '../format.js';
import type { UiAddServerRequest } from '../ui-types.js';
import { usePage } from '../use-live-store.js';

/** `KEY=value` (env) or `Name: value` (headers) lines into a record; blank lines are skipped. */
function parsePairs(text: string, separator: '=' | ':'): Record<string, string> | undefined {
  const pairs: Record<string, string> = {};
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const at = line.indexOf(separator);
    if (at <= 0)
      throw new Error(`"${line.trim()}" is not a ${separator === '=' ? 'KEY=value' : 'Name: value'} line.`);
    pairs[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return Object.keys(pairs).length > 0 ? pairs : undefined;
}

export function AddServerForm() {
  const { api, store } = usePage();
  const [kind, setKind] = useState<'url' | 'command'>('url');
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [headers, setHeaders] = useState('');
  const [command, setCommand] = useState('');
  const [args, setArgs] = useState('');
  const [env, setEnv] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  async function submit(event: Event): Promise<void> {
    event.preventDefault();
    setError(undefined);
    let request: UiAddServerRequest;
    try {
      if (name.trim() === '') throw new Error('Give the server a name.');
      request =
        kind === 'url'
          ? { name: name.trim(), url: url.trim(), headers: parsePairs(headers, ':') }
          : {
              name: name.trim(),
              command: command.trim(),
              args: args.split('\n').filter((arg) => arg.trim() !== ''),
              env: parsePairs(env, '='),
            };
    } catch (problem) {
      setError(errorText(problem));
      return;
    }
    setBusy(true);
    try {
      store.putServer(await api.addServer(request));
      store.setNotice(`${request.name}: added.`);
      setName('');
      setUrl('');
      setHeaders('');
      setCommand('');
      setArgs('');
      setEnv('');
    } catch (problem) {
      setError(errorText(problem));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      class="add-server card"
      onSubmit={(event) => void submit(event)}
      aria-labelledby="add-server-heading"
    >
      <h3 id="add-server-heading">Add a server</h3>
      <p class="muted small">For this session only: nothing is written to your config files.</p>
      <div class="field">
        <label for="add-server-name">Name</label>
        <input id="add-server-name" value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </div>
      <fieldset class="inline">
        <legend>Kind</legend>
        <label>
          <input
            type="radio"
            name="add-server-kind"
            checked={kind === 'url'}
            onChange={() => setKind('url')}
          />{' '}
          Remote (URL)
        </label>
        <label>
          <input
            type="radio"
            name="add-server-kind"
            checked={kind === 'command'}
            onChange={() => setKind('command')}
          />{' '}
          Local (command)
        </label>
      </fieldset>
      {kind === 'url' ? (
        <>
          <div class="field">
            <label for="add-server-url">URL</label>
            <input
              id="add-server-url"
              type="url"
              placeholder="https://host/mcp"
              value={url}
              onInput={(e) => setUrl(e.currentTarget.value)}
            />
          </div>
          <div class="field">
            <label for="add-server-headers">Headers</label>
            <textarea
              id="add-server-headers"
              rows={2}
              placeholder="Authorization: Bearer …"
              aria-describedby="add-server-headers-hint"
              value={headers}
              onInput={(e) => setHeaders(e.currentTarget.value)}
            />
            <div id="add-server-headers-hint" class="hint">
              One "Name: value" a line. Values stay in the process; the page never shows them again.
            </div>
          </div>
        </>
      ) : (
        <>
          <div class="field">
            <label for="add-server-command">Command</label>
            <input
              id="add-server-command"
              placeholder="npx"
              value={command}
              onInput={(e) => setCommand(e.currentTarget.value)}
            />
          </div>
          <div class="field">
            <label for="add-server-args">Arguments</label>
            <textarea
              id="add-server-args"
              rows={2}
              placeholder={'-y\n@modelcontextprotocol/server-everything'}
              aria-describedby="add-server-args-hint"
              value={args}
              onInput={(e) => setArgs(e.currentTarget.value)}
            />
            <div id="add-server-args-hint" class="hint">
              One argument a line.
            </div>
          </div>
          <div class="field">
            <label for="add-server-env">Environment</label>
            <textarea
              id="add-server-env"
              rows={2}
              placeholder="KEY=value"
              aria-describedby="add-server-env-hint"
              value={env}
              onInput={(e) => setEnv(e.currentTarget.value)}
            />
            <div id="add-server-env-hint" class="hint">
              One KEY=value a line.
            </div>
          </div>
        </>
      )}
      {error !== undefined && (
        <p class="error-text" role="alert">
          {error}
        </p>
      )}
      <button type="submit" disabled={busy}>
        {busy ? 'Adding…' : 'Add server'}
      </button>
    </form>
  );
}
