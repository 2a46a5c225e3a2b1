/** The validator's messages for one field or fieldset, referenced by its control's `aria-describedby`. */
export function FieldErrors(props: { id: string; errors: string[] | undefined }) {
  if (props.errors === undefined) return null;
  return (
    <div id={`${props.id}-error`} class="field-error">
      {props.errors.join('; ')}
    </div>
  );
}
