/**
 * `useVirtualRows(count, rowHeight)`: a fixed-height virtual list on @tanstack/virtual-core, so a
 * list of 10,000+ rows renders only the ~30 in view (and keeps up as rows arrive).
 */
import {
  elementScroll,
  observeElementOffset,
  observeElementRect,
  type VirtualItem,
  Virtualizer,
} from '@tanstack/virtual-core';
import { useLayoutEffect, useReducer, useRef, useState } from 'preact/hooks';

export interface VirtualRows {
  /** Ref for the scrolling element. */
  scrollRef: { current: HTMLDivElement | null };
  items: VirtualItem[];
  totalSize: number;
  scrollToIndex(index: number): void;
}

export function useVirtualRows(options: {
  count: number;
  rowHeight: number;
  overscan?: number;
  /** Space above the first row inside the scrolling box (a sticky header). */
  paddingStart?: number;
}): VirtualRows {
  const scrollRef = useRef<HTMLDivElement | null>(null);
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const optionsFor = (count: number) => ({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => options.rowHeight,
    overscan: options.overscan ?? 12,
    paddingStart: options.paddingStart ?? 0,
    scrollPaddingStart: options.paddingStart ?? 0,
    scrollToFn: elementScroll,
    observeElementRect,
    observeElementOffset,
    onChange: () => rerender(0),
  });
  const [virtualizer] = useState(
    () => new Virtualizer<HTMLDivElement, HTMLLIElement>(optionsFor(options.count)),
  );
  virtualizer.setOptions({ ...virtualizer.options, ...optionsFor(options.count) });
  useLayoutEffect(() => virtualizer._didMount(), [virtualizer]);
  useLayoutEffect(() => {
    virtualizer._willUpdate();
  });
  return {
    scrollRef,
    items: virtualizer.getVirtualItems(),
    totalSize: virtualizer.getTotalSize(),
    scrollToIndex: (index) => virtualizer.scrollToIndex(index, { align: 'end' }),
  };
}
