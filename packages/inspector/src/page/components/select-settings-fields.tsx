/** One setting of the selector for the playground: k, minScore, signals, alwaysInclude. */
export interface SelectSettings {
  k: string;
  minScore: string;
  signals: 'hybrid' | 'dense' | 'lexical';
  alwaysInclude: string;
}

export const defaultSelectSettings: SelectSettings = {
  k: '8',
  minScore: '',
  signals: 'hybrid',
  alwaysInclude: '',
};

export function SelectSettingsFields(props: {
  idPrefix: string;
  legend: string;
  /** Added to each label of a second setting, so that no two fields share a name. */
  suffix: string;
  settings: SelectSettings;
  onChange(settings: SelectSettings): void;
}) {
  const { settings, idPrefix, suffix } = props;
  const set = (patch: Partial<SelectSettings>) => props.onChange({ ...settings, ...patch });
  return (
    <fieldset class="select-settings">
      <legend>{props.legend}</legend>
      <div class="field">
        <label for={`${idPrefix}-k`}>k{suffix}</label>
        <input
          id={`${idPrefix}-k`}
          type="number"
          min="1"
          step="1"
          value={settings.k}
          onInput={(e) => set({ k: e.currentTarget.value })}
        />
      </div>
      <div class="field">
        <label for={`${idPrefix}-min-score`}>minScore{suffix}</label>
        <input
          id={`${idPrefix}-min-score`}
          type="number"
          step="0.01"
          placeholder="default"
          value={settings.minScore}
          onInput={(e) => set({ minScore: e.currentTarget.value })}
        />
      </div>
      <div class="field">
        <label for={`${idPrefix}-signals`}>signals{suffix}</label>
        <select
          id={`${idPrefix}-signals`}
          value={settings.signals}
          onChange={(e) => set({ signals: e.currentTarget.value as SelectSettings['signals'] })}
        >
          <option value="hybrid">hybrid (BM25 + dense)</option>
          <option value="lexical">lexical (BM25)</option>
          <option value="dense">dense (embeddings)</option>
        </select>
      </div>
      <div class="field">
        <label for={`${idPrefix}-always`}>alwaysInclude{suffix}</label>
        <input
          id={`${idPrefix}-always`}
          type="text"
          placeholder="tool names, comma-separated"
          value={settings.alwaysInclude}
          onInput={(e) => set({ alwaysInclude: e.currentTarget.value })}
        />
      </div>
    </fieldset>
  );
}
