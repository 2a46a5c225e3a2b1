/**
 * A selection's ranking, best first: fused score, BM25 and dense ranks, alwaysInclude marked;
 * the threshold line is drawn above the first tool not selected; the tokens of the selected
 * schemas against all of them.
 */
import { formatCount, formatMs } from '../format.js';
import type { UiSelection } from '../ui-types.js';
import { TokenSummary } from './token-summary.js';

const score = (value: number | undefined, digits = 3) => (value === undefined ? '–' : value.toFixed(digits));
const rank = (value: number | undefined) => (value === undefined ? '–' : `#${value}`);

export function RankingList(props: { selection: UiSelection; listLabel: string; heading: string }) {
  const { selection } = props;
  const firstOut = selection.ranking.findIndex((tool) => !tool.selected);
  const top = Math.max(...selection.ranking.map((tool) => tool.score), 0) || 1;
  return (
    <div class="ranking">
      <h3>{props.heading}</h3>
      <p class="small muted">
        {formatCount(selection.selectedCount)} selected of {formatCount(selection.ranking.length)} ranked ·
        minScore {score(selection.minScore)} · {formatMs(selection.durationMs)}
        {selection.embedder !== undefined && ` · embedder ${selection.embedder}`}
      </p>
      {selection.denseUnavailable !== undefined && (
        <details class="small dense-unavailable">
          <summary>Dense signal unavailable: ranked by BM25 alone</summary>
          <p>{selection.denseUnavailable}</p>
        </details>
      )}
      <TokenSummary tokens={selection.tokens} />
      <ol aria-label={props.listLabel} class="ranking-list">
        {selection.ranking.map((tool, index) => (
          <li
            key={`${tool.server}/${tool.name}`}
            class={[
              tool.selected ? 'ranked selected' : 'ranked',
              index === firstOut && index > 0 ? 'below-line' : '',
              index === firstOut && index === 0 ? 'below-line first' : '',
            ].join(' ')}
          >
            <div class="ranked-head">
              <span class="ranked-name">{tool.name}</span>
              <span class="small muted">{tool.server}</span>
              {tool.selected ? (
                <span class="badge badge-good">selected</span>
              ) : (
                <span class="badge badge-neutral">not selected</span>
              )}
              {tool.alwaysIncluded === true && <span class="badge badge-busy">alwaysInclude</span>}
            </div>
            <div class="ranked-scores small">
              <span class="score-bar" aria-hidden="true">
                <span style={{ width: `${Math.max(0, (tool.score / top) * 100)}%` }} />
              </span>
              <span>fused {score(tool.score)}</span>
              <span>
                BM25 {rank(tool.lexicalRank)} ({score(tool.lexicalScore, 2)})
              </span>
              <span>
                dense {rank(tool.denseRank)} ({score(tool.denseScore)})
              </span>
            </div>
            {tool.description !== undefined && <div class="small ranked-description">{tool.description}</div>}
          </li>
        ))}
      </ol>
    </div>
  );
}
