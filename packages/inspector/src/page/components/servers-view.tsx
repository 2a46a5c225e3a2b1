/** The Servers view: every server with its state and figures, its actions, and a form to add one. */
import { useLiveStore } from '../use-live-store.js';
import { AddServerForm } from './add-server-form.js';
import { ServerRow } from './server-row.js';

export function ServersView() {
  const servers = useLiveStore((state) => state.servers);
  const loaded = useLiveStore((state) => state.serversLoaded);
  return (
    <section aria-labelledby="servers-heading">
      <h2 id="servers-heading">Servers</h2>
      {!loaded && <p>Loading servers…</p>}
      {loaded && servers.length === 0 && (
        <p>No servers yet: add one below, or start `switchboard ui --config FILE` with a config.</p>
      )}
      {servers.length > 0 && (
        <div class="table-scroll">
          <table class="servers">
            <thead>
              <tr>
                <th scope="col">Server</th>
                <th scope="col">State</th>
                <th scope="col">Protocol</th>
                <th scope="col">Transport</th>
                <th scope="col">Tools</th>
                <th scope="col">Calls</th>
                <th scope="col">p50 / p95</th>
                <th scope="col">Respawns</th>
                <th scope="col">Last error</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {servers.map((server) => (
                <ServerRow key={server.name} server={server} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <AddServerForm />
    </section>
  );
}
