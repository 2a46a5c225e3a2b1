/** One server's tools, resources and prompts (being built). */
export function ServerView(props: { server: string; tab: 'tools' | 'resources' | 'prompts' }) {
  return (
    <section aria-labelledby="view-heading">
      <h2 id="view-heading">{props.server}</h2>
      <p>{props.tab}</p>
    </section>
  );
}
