/** One prompt: its arguments as text fields, and "Get prompt" showing the messages it returns. */
import { useState } from 'preact/hooks';
import { errorText, prettyJson } from '../format.js';
import type { UiPrompt } from '../ui-types.js';
import { usePage } from '../use-live-store.js';
import { CodeBlock } from './code-block.js';

export function PromptItem(props: { server: string; prompt: UiPrompt }) {
  const { api } = usePage();
  const { prompt } = props;
  const [args, setArgs] = useState<Record<string, string>>({});
  const [answer, setAnswer] = useState<{ result?: unknown; error?: string } | undefined>(undefined);
  const idOf = (name: string) => `prompt-${prompt.name}-${name}`.replace(/[^A-Za-z0-9_-]/g, '_');
  return (
    <form
      class="card prompt"
      noValidate={true}
      aria-label={`Prompt ${prompt.name}`}
      onSubmit={(event) => {
        event.preventDefault();
        const filled = Object.fromEntries(Object.entries(args).filter(([, value]) => value !== ''));
        api.getPrompt(props.server, prompt.name, filled).then(
          (result) => setAnswer({ result }),
          (error: unknown) => setAnswer({ error: errorText(error) }),
        );
      }}
    >
      <h4>{prompt.title ?? prompt.name}</h4>
      {prompt.description !== undefined && <p class="small">{prompt.description}</p>}
      {(prompt.arguments ?? []).map((argument) => (
        <div class="field" key={argument.name}>
          <span class="field-label">
            <label for={idOf(argument.name)}>{argument.name}</label>
            {argument.required && <span class="required-mark">required</span>}
          </span>
          <input
            id={idOf(argument.name)}
            value={args[argument.name] ?? ''}
            aria-required={argument.required ? 'true' : undefined}
            onInput={(e) => setArgs({ ...args, [argument.name]: e.currentTarget.value })}
          />
          {argument.description !== undefined && <div class="hint">{argument.description}</div>}
        </div>
      ))}
      <button type="submit" class="secondary">
        Get prompt
      </button>
      {answer?.error !== undefined && <p class="error-text">{answer.error}</p>}
      {answer?.result !== undefined && <CodeBlock text={prettyJson(answer.result)} />}
    </form>
  );
}
