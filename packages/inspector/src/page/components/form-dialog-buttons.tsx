/**
 * The buttons under a question a server asks in the page (an elicitation form, a sampling reply):
 * submit the form, or decline. One component so that every such dialog answers the same way.
 */
export function FormDialogButtons(props: { submitLabel: string; busy: boolean; onDecline: () => void }) {
  return (
    <div class="dialog-buttons">
      <button type="submit" disabled={props.busy}>
        {props.submitLabel}
      </button>
      <button type="button" class="secondary" disabled={props.busy} onClick={props.onDecline}>
        Decline
      </button>
    </div>
  );
}
