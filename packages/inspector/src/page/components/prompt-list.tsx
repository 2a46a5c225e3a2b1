/** A server's prompts, searchable; each can be fetched with its arguments. */
import { useState } from 'preact/hooks';
import { errorText } from '../format.js';
import { useAsync } from '../use-async.js';
import { usePage } from '../use-live-store.js';
import { PromptItem } from './prompt-item.js';
import { SearchBox } from './search-box.js';

export function PromptList(props: { server: string }) {
  const { api } = usePage();
  const list = useAsync(() => api.prompts(props.server), [props.server]);
  const [query, setQuery] = useState('');
  const needle = query.trim().toLowerCase();
  const prompts = (list.data ?? []).filter(
    (prompt) =>
      needle === '' ||
      [prompt.name, prompt.title, prompt.description].some((t) => t?.toLowerCase().includes(needle)),
  );
  return (
    <>
      <h3>Prompts</h3>
      <SearchBox id="server-prompts-search" label="Search prompts" value={query} onInput={setQuery} />
      {list.error !== undefined && <p class="error-text">{errorText(list.error)}</p>}
      {list.loading && list.data === undefined && <p>Loading prompts…</p>}
      {list.data !== undefined && prompts.length === 0 && <p class="muted">No prompts match.</p>}
      {prompts.map((prompt) => (
        <PromptItem key={prompt.name} server={props.server} prompt={prompt} />
      ))}
    </>
  );
}
