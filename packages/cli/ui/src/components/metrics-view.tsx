/** The Metrics view (being built). */
export function MetricsView() {
  return (
    <section aria-labelledby="view-heading">
      <h2 id="view-heading">Metrics</h2>
      <p>Coming soon.</p>
    </section>
  );
}
