/** The protocol log's filters: server, direction, method, text; and whether to follow new messages. */
import { emptyLogFilter, type LogFilter } from '../log-filter.js';

export function LogFilters(props: {
  filter: LogFilter;
  servers: string[];
  onChange(filter: LogFilter): void;
  follow: boolean;
  onFollow(follow: boolean): void;
}) {
  const { filter } = props;
  const set = (patch: Partial<LogFilter>) => props.onChange({ ...filter, ...patch });
  return (
    <search class="log-filters">
      <div class="field">
        <label for="log-filter-server">Server</label>
        <select
          id="log-filter-server"
          value={filter.server}
          onChange={(e) => set({ server: e.currentTarget.value })}
        >
          <option value="">All servers</option>
          {props.servers.map((server) => (
            <option key={server} value={server}>
              {server}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="log-filter-direction">Direction</label>
        <select
          id="log-filter-direction"
          value={filter.direction}
          onChange={(e) => set({ direction: e.currentTarget.value as LogFilter['direction'] })}
        >
          <option value="">Both</option>
          <option value="out">Out (to the server)</option>
          <option value="in">In (from the server)</option>
        </select>
      </div>
      <div class="field">
        <label for="log-filter-method">Method</label>
        <input
          id="log-filter-method"
          type="search"
          placeholder="tools/call"
          value={filter.method}
          onInput={(e) => set({ method: e.currentTarget.value })}
        />
      </div>
      <div class="field">
        <label for="log-filter-text">Text</label>
        <input
          id="log-filter-text"
          type="search"
          placeholder="anything in the message"
          value={filter.text}
          onInput={(e) => set({ text: e.currentTarget.value })}
        />
      </div>
      <div class="field checkbox">
        <input
          id="log-follow"
          type="checkbox"
          checked={props.follow}
          onChange={(e) => props.onFollow(e.currentTarget.checked)}
        />
        <label for="log-follow">Follow new messages</label>
      </div>
      <button type="button" class="secondary log-clear" onClick={() => props.onChange(emptyLogFilter)}>
        Clear filters
      </button>
    </search>
  );
}
