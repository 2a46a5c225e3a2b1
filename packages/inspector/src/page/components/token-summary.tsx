/** Tokens of the selected tools' schemas against all tools' (what the selection saves a prompt). */
import { formatCount } from '../format.js';
import type { UiSelection } from '../ui-types.js';

export function TokenSummary(props: { tokens: UiSelection['tokens'] }) {
  const { tokens } = props;
  const share = tokens.totalTokens > 0 ? tokens.selectedTokens / tokens.totalTokens : 0;
  return (
    <div class="token-summary">
      <p>
        Selected schemas: <strong>{formatCount(tokens.selectedTokens)}</strong> tokens of{' '}
        {formatCount(tokens.totalTokens)} ({formatCount(tokens.selectedTools)} of{' '}
        {formatCount(tokens.totalTools)} tools) · saves <strong>{formatCount(tokens.savedTokens)}</strong>{' '}
        tokens ({Math.round((1 - share) * 100)}%)
      </p>
      <div class="token-bar" aria-hidden="true">
        <span style={{ width: `${Math.min(100, share * 100)}%` }} />
      </div>
    </div>
  );
}
