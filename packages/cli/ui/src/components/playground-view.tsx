/** The Playground view (being built). */
export function PlaygroundView() {
  return (
    <section aria-labelledby="view-heading">
      <h2 id="view-heading">Playground</h2>
      <p>Coming soon.</p>
    </section>
  );
}
