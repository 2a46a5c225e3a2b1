/**
 * The page of `switchboard ui`: reads the token, creates the API client and the live store, and
 * renders the app. uPlot's stylesheet is imported here so that esbuild puts it in app.css.
 */
import 'uplot/dist/uPlot.min.css';
import './app.css';
import { render } from 'preact';
import { createApiClient, takeTokenFromLocation } from './api-client.js';
import { App } from './components/app.js';
import { createLiveStore } from './live-store.js';

const api = createApiClient({ token: takeTokenFromLocation(window.location, window.history) });
const store = createLiveStore({ api });
store.start();
const root = document.getElementById('app');
if (root === null) throw new Error('switchboard ui: index.html has no #app element to render into.');
render(<App api={api} store={store} />, root);
