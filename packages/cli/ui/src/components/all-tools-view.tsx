/** The Tools view (being built). */
export function AllToolsView() {
  return (
    <section aria-labelledby="view-heading">
      <h2 id="view-heading">Tools</h2>
      <p>Coming soon.</p>
    </section>
  );
}
