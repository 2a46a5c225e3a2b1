/**
 * What servers and the approval policy ask of the user, shown above every view until answered:
 * call approvals, elicitations and sampling requests (each a non-modal dialog, so the rest of the
 * page stays usable while one waits).
 */
import { useLiveStore } from '../use-live-store.js';
import { ApprovalDialog } from './approval-dialog.js';
import { ElicitationDialog } from './elicitation-dialog.js';
import { SamplingDialog } from './sampling-dialog.js';

export function PendingRequests() {
  const pending = useLiveStore((state) => state.pending);
  if (pending.length === 0) return null;
  return (
    <aside class="pending" aria-labelledby="pending-heading">
      <h2 id="pending-heading" class="visually-hidden">
        Pending requests
      </h2>
      {pending.map((request) => {
        switch (request.kind) {
          case 'approval':
            return <ApprovalDialog key={request.id} request={request} />;
          case 'elicitation':
            return <ElicitationDialog key={request.id} request={request} />;
          case 'sampling':
            return <SamplingDialog key={request.id} request={request} />;
          default:
            return null;
        }
      })}
    </aside>
  );
}
