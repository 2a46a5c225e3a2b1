/** Whether a provider takes a tool as is, with lossy changes, or not at all. */
import type { UiProviderForm } from '../ui-types.js';

export function ProviderVerdict(props: { form: UiProviderForm | undefined }) {
  const { form } = props;
  if (form === undefined) return <span class="badge badge-neutral">not given</span>;
  if (form.rejected !== undefined) return <span class="badge badge-bad">rejected</span>;
  if (form.lossy.length > 0) return <span class="badge badge-warn">{form.lossy.length} lossy</span>;
  return <span class="badge badge-good">exact</span>;
}
