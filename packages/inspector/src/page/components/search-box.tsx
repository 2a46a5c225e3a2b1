/** A labelled search box that filters a list as one types. */
export function SearchBox(props: { id: string; label: string; value: string; onInput(value: string): void }) {
  return (
    <div class="search-box">
      <label for={props.id}>{props.label}</label>
      <input
        id={props.id}
        type="search"
        value={props.value}
        onInput={(e) => props.onInput(e.currentTarget.value)}
        autocomplete="off"
      />
    </div>
  );
}
