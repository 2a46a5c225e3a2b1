/**
 * Tool trust review: each tool held back from the model (quarantined, or rejected while still
 * listed) with why, a diff of its definition against the pinned one (description and schema, one
 * value a line, invisible characters shown as `<U+XXXX>`), the rules' findings with the flagged span
 * highlighted in its text, and Approve / Reject, which call the connection's trust API.
 */
import { useState } from 'preact/hooks';
import { errorText, formatTime } from '../format.js';
import type { UiTrustFinding, UiTrustReview } from '../ui-types.js';
import { useAsync } from '../use-async.js';
import { useLiveStore, usePage } from '../use-live-store.js';

const changeText: Record<string, string> = {
  changed: 'its definition changed since it was approved',
  'new-tool': 'it is new on a server whose tools were pinned',
  renamed: 'it looks like a pinned tool under another name',
  'new-server': 'its server is new, and new servers are quarantined',
  finding: 'a check found text aimed at the model in it',
};

export function TrustView() {
  const { api } = usePage();
  const version = useLiveStore((state) => state.trustVersion);
  const reviews = useAsync(() => api.trustReviews(), [version]);
  const list = reviews.data;
  return (
    <section aria-labelledby="trust-heading">
      <h2 id="trust-heading">Tool trust</h2>
      <p class="muted">
        Tools held back from the model until a person decides: changed since approved, new, renamed, or
        flagged by a check. Approve to pin the definition and serve the tool; reject to keep it hidden.
      </p>
      {reviews.error !== undefined && <p class="error-text">{errorText(reviews.error)}</p>}
      {list === undefined && reviews.loading && <p>Loading…</p>}
      {list !== undefined && list.length === 0 && (
        <p>Nothing waits for review: every listed tool is trusted.</p>
      )}
      {list?.map((review) => (
        <TrustReviewCard
          key={`${review.server}/${review.tool}/${review.digest}`}
          review={review}
          onDecided={reviews.reload}
        />
      ))}
    </section>
  );
}

function TrustReviewCard(props: { review: UiTrustReview; onDecided: () => void }) {
  const { review } = props;
  const { api, store } = usePage();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const id = `trust-${review.server}-${review.tool}-${review.digest.slice(-12)}`.replace(/[^\w-]/g, '_');
  const name = `${review.server}/${review.tool}`;
  const decide = async (decision: 'approve' | 'reject') => {
    setBusy(true);
    setError(undefined);
    try {
      await api.decideTrust(decision, { server: review.server, tool: review.tool, digest: review.digest });
      store.setNotice(`${decision === 'approve' ? 'Approved' : 'Rejected'} ${name}.`);
      props.onDecided();
    } catch (problem) {
      setError(errorText(problem));
    } finally {
      setBusy(false);
    }
  };
  const parts = review.parts?.length ? ` (changed: ${review.parts.join(', ')})` : '';
  const renamed = review.previousName === undefined ? '' : ` (was "${review.previousName}")`;
  return (
    <article class="trust-review" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`} class="trust-review-heading">
        <code>{name}</code>{' '}
        <span class={`badge ${review.status === 'rejected' ? 'badge-bad' : 'badge-warn'}`}>
          {review.status === 'rejected' ? 'rejected' : 'quarantined'}
        </span>
      </h3>
      <p>
        {review.status === 'rejected'
          ? 'A person rejected this definition: it stays hidden and refused.'
          : `Held back because ${changeText[review.change ?? ''] ?? review.change ?? 'it is not pinned'}`}
        {parts}
        {renamed}. <span class="muted small">Since {formatTime(review.decidedAt)}.</span>
      </p>
      <h4 class="trust-review-part">What changed</h4>
      <DefinitionDiff review={review} />
      <h4 class="trust-review-part">Findings</h4>
      {review.findings.length === 0 ? (
        <p class="muted">No check flagged this definition.</p>
      ) : (
        <ul class="trust-findings" aria-label={`Findings on ${name}`}>
          {review.findings.map((finding, index) => (
            <FindingItem key={`${finding.code}-${finding.field}-${index}`} finding={finding} />
          ))}
        </ul>
      )}
      {error !== undefined && <p class="error-text">{error}</p>}
      <div class="dialog-buttons">
        {review.status === 'pending' && (
          <button
            type="button"
            disabled={busy}
            aria-label={`Approve ${name}`}
            onClick={() => void decide('approve')}
          >
            Approve
          </button>
        )}
        {review.status === 'pending' && (
          <button
            type="button"
            class="secondary"
            disabled={busy}
            aria-label={`Reject ${name}`}
            onClick={() => void decide('reject')}
          >
            Reject
          </button>
        )}
        {review.status === 'rejected' && (
          <button
            type="button"
            class="secondary"
            disabled={busy}
            aria-label={`Approve ${name} after all`}
            onClick={() => void decide('approve')}
          >
            Approve after all
          </button>
        )}
      </div>
    </article>
  );
}

function DefinitionDiff(props: { review: UiTrustReview }) {
  const { review } = props;
  const pinned =
    review.pinnedDigest === undefined ? 'not pinned before' : `pinned ${shortDigest(review.pinnedDigest)}`;
  return (
    <figure class="trust-diff-figure" aria-label={`Definition diff of ${review.server}/${review.tool}`}>
      <figcaption class="muted small">
        {pinned} → offered {shortDigest(review.digest)}
      </figcaption>
      <pre class="trust-diff">
        {review.diff.map((line, index) =>
          line.kind === 'added' ? (
            <ins key={index} class="diff-added">
              {`+ ${line.text}\n`}
            </ins>
          ) : line.kind === 'removed' ? (
            <del key={index} class="diff-removed">
              {`- ${line.text}\n`}
            </del>
          ) : (
            <span key={index} class="diff-same">{`  ${line.text}\n`}</span>
          ),
        )}
      </pre>
    </figure>
  );
}

function FindingItem(props: { finding: UiTrustFinding }) {
  const { finding } = props;
  const serious = finding.severity === 'high' || finding.severity === 'critical';
  return (
    <li class="trust-finding">
      <span
        class={`badge ${serious ? 'badge-bad' : finding.severity === 'medium' ? 'badge-warn' : 'badge-neutral'}`}
      >
        {finding.severity}
      </span>{' '}
      <code>{finding.code}</code> <span class="muted small">({finding.rule})</span> in{' '}
      <code>{finding.field}</code>: {finding.message}
      <blockquote class="trust-span">
        {finding.before}
        <mark>{finding.flagged}</mark>
        {finding.after}
      </blockquote>
    </li>
  );
}

function shortDigest(digest: string): string {
  return digest.replace(/^sha256:/, '').slice(0, 12);
}
