/**
 * `useLiveStore(select)`: a component's subscription to the live store, re-rendering only when
 * the selected value changes (by identity).
 */
import { createContext } from 'preact';
import { useContext, useEffect, useReducer, useRef } from 'preact/hooks';
import type { UiApiClient } from './api-client.js';
import type { LiveState, LiveStore } from './live-store.js';

/** The store and the API client of the page, given to every component by `<App>`. */
export const PageContext = createContext<{ store: LiveStore; api: UiApiClient } | undefined>(undefined);

export function usePage(): { store: LiveStore; api: UiApiClient } {
  const page = useContext(PageContext);
  if (page === undefined) throw new Error('usePage: a component was rendered outside <App>.');
  return page;
}

export function useLiveStore<T>(select: (state: LiveState) => T): T {
  const { store } = usePage();
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const selected = select(store.getState());
  const latest = useRef({ select, selected });
  latest.current = { select, selected };
  useEffect(
    () =>
      store.subscribe(() => {
        const next = latest.current.select(store.getState());
        if (!Object.is(next, latest.current.selected)) rerender(0);
      }),
    [store],
  );
  return selected;
}
