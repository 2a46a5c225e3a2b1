/**
 * The page as the host of one MCP App, through the official `AppBridge` of
 * `@modelcontextprotocol/ext-apps`: the bridge talks to the app across the sandbox proxy's frame
 * (`postMessage`, checked by window), answers `ui/initialize` with what this host offers, sends the
 * tool input and result once the app is initialized, and relays what the app asks of its server —
 * `tools/call`, `resources/read`, log messages — to the inspector's process, which runs them as the
 * page's own calls (approval prompt, protocol log). Loaded on demand: the page's first load does not
 * carry the bridge (or the SDK it stands on).
 */
import type { CallToolResult, ReadResourceResult } from '@modelcontextprotocol/client';
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { UiApiClient } from './api-client.js';
import type { UiAppView } from './ui-types.js';

/** What the page hears from its app. */
export interface AppHostEvents {
  /** The app finished `ui/initialize` and has its tool input and result. */
  onReady(): void;
  /** The app asks for a size (pixels). */
  onSize(size: { width?: number; height?: number }): void;
}

/** A hosted app: tear it down when its view goes away. */
export interface AppHost {
  close(): Promise<void>;
}

/** The host's identity in `ui/initialize`. */
const hostInfo = { name: 'switchboard-ui', version: '1.0.0' };

/** How long a closing app may take to answer `ui/resource-teardown`. */
const teardownMs = 500;

/**
 * Hosts `view` in `frame`: connects the bridge to the frame's window first, then loads the sandbox
 * (so the app's first message always finds the bridge listening).
 */
export async function hostApp(
  frame: HTMLIFrameElement,
  view: UiAppView,
  api: Pick<UiApiClient, 'appRequest'>,
  events: AppHostEvents,
): Promise<AppHost> {
  const window = frame.contentWindow;
  if (window === null) throw new Error('The app frame is not in the page.');
  const dark = globalThis.matchMedia?.('(prefers-color-scheme: dark)').matches === true;
  const bridge = new AppBridge(
    null,
    hostInfo,
    {
      serverTools: {},
      serverResources: {},
      logging: {},
      sandbox: { csp: view.granted.csp, permissions: view.granted.permissions },
    },
    {
      hostContext: {
        toolInfo: { tool: view.tool as never },
        theme: dark ? 'dark' : 'light',
        platform: 'web',
        displayMode: 'inline',
        availableDisplayModes: ['inline'],
        containerDimensions: { maxHeight: 720 },
        locale: navigator.language,
        userAgent: 'switchboard-ui',
      },
    },
  );
  const relay = (method: string, params: unknown) => api.appRequest(view.viewId, { method, params });
  bridge.oncalltool = async (params) => (await relay('tools/call', params)) as CallToolResult;
  bridge.onreadresource = async (params) => (await relay('resources/read', params)) as ReadResourceResult;
  bridge.onloggingmessage = (params) => {
    relay('notifications/message', params).catch(() => {});
  };
  bridge.onsizechange = (size) => events.onSize(size);
  bridge.oninitialized = () => {
    void (async () => {
      await bridge.sendToolInput(view.toolInput);
      await bridge.sendToolResult(view.toolResult as CallToolResult);
      events.onReady();
    })();
  };
  await bridge.connect(new PostMessageTransport(window, window));
  frame.src = view.sandboxUrl;
  return {
    async close() {
      try {
        await Promise.race([
          bridge.teardownResource({}),
          new Promise((resolve) => setTimeout(resolve, teardownMs)),
        ]);
      } catch {
        // An app that fails its teardown is torn down all the same.
      }
      await bridge.close();
    },
  };
}
