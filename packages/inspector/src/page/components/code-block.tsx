/**
 * Preformatted JSON (schemas, arguments, messages) in a box that scrolls past its max height.
 * It takes keyboard focus: scrolled content must be reachable without a mouse (WCAG 2.1.1).
 */
export function CodeBlock(props: { text: string }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling box must be focusable to scroll by keyboard
    <pre class="code" tabIndex={0}>
      {props.text}
    </pre>
  );
}
