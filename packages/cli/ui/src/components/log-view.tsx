/** The Log view (being built). */
export function LogView() {
  return (
    <section aria-labelledby="view-heading">
      <h2 id="view-heading">Log</h2>
      <p>Coming soon.</p>
    </section>
  );
}
