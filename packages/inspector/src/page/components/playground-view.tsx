/**
 * The selection playground: a query over all connected tools (or a dataset folder in the
 * benchmark format), ranked by the tool selector with its signals, the threshold line,
 * alwaysInclude, and the tokens the selected schemas take against all; optionally two settings
 * side by side.
 */
import { useState } from 'preact/hooks';
import { errorText } from '../format.js';
import type { UiSelection, UiSelectRequest } from '../ui-types.js';
import { usePage } from '../use-live-store.js';
import { RankingList } from './ranking-list.js';
import {
  defaultSelectSettings,
  type SelectSettings,
  SelectSettingsFields,
} from './select-settings-fields.js';

function toRequest(query: string, dataset: string, settings: SelectSettings): UiSelectRequest {
  const request: UiSelectRequest = { query, signals: settings.signals };
  if (settings.k.trim() !== '') request.k = Number(settings.k);
  if (settings.minScore.trim() !== '') request.minScore = Number(settings.minScore);
  const always = settings.alwaysInclude
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (always.length > 0) request.alwaysInclude = always;
  if (dataset.trim() !== '') request.dataset = dataset.trim();
  return request;
}

export function PlaygroundView() {
  const { api } = usePage();
  const [query, setQuery] = useState('');
  const [dataset, setDataset] = useState('');
  const [settingsA, setSettingsA] = useState<SelectSettings>(defaultSelectSettings);
  const [settingsB, setSettingsB] = useState<SelectSettings>({
    ...defaultSelectSettings,
    signals: 'lexical',
  });
  const [compare, setCompare] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const [results, setResults] = useState<{ a?: UiSelection | undefined; b?: UiSelection | undefined }>({});

  async function select(event: Event): Promise<void> {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const [a, b] = await Promise.all([
        api.select(toRequest(query, dataset, settingsA)),
        compare ? api.select(toRequest(query, dataset, settingsB)) : Promise.resolve(undefined),
      ]);
      setResults({ a, b });
    } catch (problem) {
      setError(errorText(problem));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="playground-heading">
      <h2 id="playground-heading">Selection playground</h2>
      <div class="playground-layout">
        <form class="playground-form" noValidate={true} onSubmit={(event) => void select(event)}>
          <div class="field query-field">
            <label for="playground-query">Query</label>
            <input
              id="playground-query"
              type="text"
              value={query}
              placeholder="add two numbers"
              onInput={(e) => setQuery(e.currentTarget.value)}
            />
          </div>
          <div class="settings-column">
            <SelectSettingsFields
              idPrefix="setting-a"
              legend={compare ? 'Setting A' : 'Settings'}
              suffix=""
              settings={settingsA}
              onChange={setSettingsA}
            />
            {compare && (
              <SelectSettingsFields
                idPrefix="setting-b"
                legend="Setting B"
                suffix=" (B)"
                settings={settingsB}
                onChange={setSettingsB}
              />
            )}
          </div>
          <div class="field">
            <label for="playground-dataset">Dataset folder</label>
            <input
              id="playground-dataset"
              type="text"
              value={dataset}
              placeholder="(the connected tools)"
              aria-describedby="playground-dataset-hint"
              onInput={(e) => setDataset(e.currentTarget.value)}
            />
            <div id="playground-dataset-hint" class="hint">
              A folder in the benchmark format (tools.jsonl and queries.jsonl) to rank instead of the
              connected tools.
            </div>
          </div>
          <div class="playground-buttons">
            <button type="submit" disabled={busy}>
              Select
            </button>
            <span class="field checkbox">
              <input
                id="playground-compare"
                type="checkbox"
                checked={compare}
                onChange={(e) => setCompare(e.currentTarget.checked)}
              />
              <label for="playground-compare">Compare two settings</label>
            </span>
          </div>
        </form>
        <div class={results.b !== undefined ? 'rankings rankings-compare' : 'rankings'}>
          {error !== undefined && (
            <p class="error-text" role="alert">
              {error}
            </p>
          )}
          {results.a === undefined && error === undefined && (
            <p class="muted">Write a query and press Select to see how the selector ranks the tools.</p>
          )}
          {results.a !== undefined && (
            <RankingList
              selection={results.a}
              listLabel="Ranking"
              heading={results.b !== undefined ? 'Setting A' : 'Ranking'}
            />
          )}
          {results.b !== undefined && (
            <RankingList selection={results.b} listLabel="Setting B" heading="Setting B" />
          )}
        </div>
      </div>
    </section>
  );
}
