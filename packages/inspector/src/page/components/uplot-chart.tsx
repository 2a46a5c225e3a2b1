/**
 * A uPlot chart that fits its container's width: made once per series layout, then fed new data
 * with `setData`, resized with the container, destroyed with the component. The canvas is drawn
 * for sighted users; each chart's caller gives the same figures as a table too.
 */
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';

export function UplotChart(props: {
  /** Changes when the series change (their number or names): the chart is made anew then. */
  layoutKey: string;
  options: (width: number) => uPlot.Options;
  data: uPlot.AlignedData;
  caption: string;
}) {
  const container = useRef<HTMLDivElement | null>(null);
  const chart = useRef<uPlot | undefined>(undefined);

  useEffect(() => {
    const element = container.current;
    if (element === null) return;
    const made = new uPlot(props.options(element.clientWidth || 600), props.data, element);
    chart.current = made;
    const resize = new ResizeObserver(() =>
      made.setSize({ width: element.clientWidth || 600, height: made.height }),
    );
    resize.observe(element);
    return () => {
      resize.disconnect();
      made.destroy();
      chart.current = undefined;
    };
  }, [props.layoutKey]);

  useEffect(() => {
    chart.current?.setData(props.data);
  }, [props.data]);

  return (
    <figure class="chart">
      <div ref={container} class="chart-canvas" aria-hidden="true" />
      <figcaption>{props.caption}</figcaption>
    </figure>
  );
}
