/** One tool (being built). */
export function ToolView(props: { server: string; tool: string }) {
  return (
    <section aria-labelledby="view-heading">
      <h2 id="view-heading">{props.tool}</h2>
      <p>{props.server}</p>
    </section>
  );
}
