/** The tool as OpenAI, Anthropic and Gemini would get it, and what each conversion lost. */
import type { UiProviderForm, UiToolDetail } from '../ui-types.js';
import { ProviderVerdict } from './provider-verdict.js';
import { SchemaBlock } from './schema-block.js';

const providerNames = { openai: 'OpenAI', anthropic: 'Anthropic', gemini: 'Gemini' } as const;

export function ProviderForms(props: { providers: UiToolDetail['providers'] }) {
  return (
    <section aria-labelledby="providers-heading" class="providers">
      <h3 id="providers-heading">Provider forms</h3>
      <div class="provider-grid">
        {(Object.keys(providerNames) as Array<keyof typeof providerNames>).map((provider) => {
          const form: UiProviderForm | undefined = props.providers?.[provider];
          return (
            <div key={provider} class="card provider">
              <h4>
                {providerNames[provider]} <ProviderVerdict form={form} />
              </h4>
              {form?.rejected !== undefined && <p class="error-text">Rejected: {form.rejected}</p>}
              {form !== undefined && form.lossy.length > 0 && (
                <ul class="lossy">
                  {form.lossy.map((change) => (
                    <li key={change.kind + change.path}>
                      <code>{change.kind}</code> at <code>{change.path || '/'}</code>: {change.detail}
                    </li>
                  ))}
                </ul>
              )}
              {form !== undefined && (
                <SchemaBlock title={`${providerNames[provider]} tool`} schema={form.tool} />
              )}
            </div>
          );
        })}
      </div>
    </section>
  );
}
