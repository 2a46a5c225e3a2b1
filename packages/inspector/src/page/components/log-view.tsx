/**
 * The protocol log: every JSON-RPC message in and out of each server, live, filterable, in a
 * virtual table (fixed row height) so 10,000+ entries stay responsive — only the rows in view
 * are in the DOM. A row opens its message's JSON.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { formatCount } from '../format.js';
import { emptyLogFilter, type LogFilter, logEntryMatches } from '../log-filter.js';
import { useLiveStore } from '../use-live-store.js';
import { useVirtualRows } from '../use-virtual-rows.js';
import { LogEntryDetail } from './log-entry-detail.js';
import { LogFilters } from './log-filters.js';
import { LogRow } from './log-row.js';

/** Row height in px (the header's too); `.log-table tr` in app.css must match. */
const rowHeight = 28;

export function LogView() {
  const log = useLiveStore((state) => state.log);
  const version = useLiveStore((state) => state.logVersion);
  const servers = useLiveStore((state) => state.servers);
  const [filter, setFilter] = useState<LogFilter>(emptyLogFilter);
  const [follow, setFollow] = useState(true);
  const [selected, setSelected] = useState<number | undefined>(undefined);
  const shown = useMemo(() => log.filter((entry) => logEntryMatches(entry, filter)), [log, version, filter]);
  // The sticky header row takes the first row's height of the scrolling box.
  const rows = useVirtualRows({ count: shown.length, rowHeight, paddingStart: rowHeight });
  const selectedEntry = selected === undefined ? undefined : log.find((entry) => entry.seq === selected);
  const serverNames = useMemo(
    () => [...new Set([...servers.map((server) => server.name), ...log.map((entry) => entry.server)])].sort(),
    [servers, version],
  );

  useEffect(() => {
    if (follow && shown.length > 0) rows.scrollToIndex(shown.length - 1);
  }, [follow, shown.length]);

  return (
    <section aria-label="Protocol log" class="log-view">
      <h2>Protocol log</h2>
      <LogFilters
        filter={filter}
        servers={serverNames}
        onChange={setFilter}
        follow={follow}
        onFollow={setFollow}
      />
      <p class="small muted">
        {formatCount(shown.length)} of {formatCount(log.length)} messages
      </p>
      <div class="log-body">
        <div
          class="log-scroll"
          ref={rows.scrollRef}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
          tabIndex={0}
          onWheel={() => follow && setFollow(false)}
        >
          <table class="log-table" aria-label="Messages" aria-rowcount={shown.length + 1}>
            <thead>
              <tr aria-rowindex={1}>
                <th scope="col" class="log-time">
                  Time
                </th>
                <th scope="col" class="log-server">
                  Server
                </th>
                <th scope="col" class="log-direction">
                  Dir.
                </th>
                <th scope="col" class="log-type">
                  Type
                </th>
                <th scope="col" class="log-method">
                  Method
                </th>
                <th scope="col" class="log-id">
                  Id
                </th>
                <th scope="col" class="log-summary">
                  Message
                </th>
              </tr>
            </thead>
            <tbody style={{ height: `${Math.max(rows.totalSize - rowHeight, 0)}px` }}>
              {rows.items.map((item) => {
                const entry = shown[item.index];
                if (entry === undefined) return null;
                return (
                  <LogRow
                    key={entry.seq}
                    entry={entry}
                    rowIndex={item.index + 2}
                    top={item.start - rowHeight}
                    selected={entry.seq === selected}
                    onSelect={() => setSelected(entry.seq === selected ? undefined : entry.seq)}
                  />
                );
              })}
            </tbody>
          </table>
        </div>
        <LogEntryDetail entry={selectedEntry} />
      </div>
    </section>
  );
}
