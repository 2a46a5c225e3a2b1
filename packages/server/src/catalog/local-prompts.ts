/** The server's own prompts (`createMcpServer({ prompts })`) as a provider. */
import type {
  CompleteResult,
  GetPromptResult,
  InputRequiredResult,
  Prompt,
} from '@modelcontextprotocol/server';
import { ServerError, ServerErrorCode } from '../errors/server-error.js';
import type { CompletionArgument, PromptProvider } from './content-provider.js';
import { toCompleteResult } from './local-resources.js';
import type { PromptContext, PromptDefinition } from './prompt-definition.js';

/** The local prompts of a server. */
export class LocalPrompts implements PromptProvider {
  readonly specificationVersion = 'v1';
  readonly #prompts: Map<string, PromptDefinition>;

  constructor(prompts: PromptDefinition[]) {
    this.#prompts = new Map(prompts.map((prompt) => [prompt.name, prompt]));
  }

  /** Whether there is anything to serve. */
  get empty(): boolean {
    return this.#prompts.size === 0;
  }

  listPrompts(): Prompt[] {
    return [...this.#prompts.values()].map(({ get: _get, complete: _complete, ...prompt }) => prompt);
  }

  async getPrompt(
    name: string,
    args: Record<string, string>,
    context: PromptContext,
  ): Promise<GetPromptResult | InputRequiredResult | undefined> {
    const prompt = this.#prompts.get(name);
    if (prompt === undefined) return undefined;
    const missing = (prompt.arguments ?? []).filter(
      (argument) => argument.required && !(argument.name in args),
    );
    if (missing.length > 0) {
      throw new ServerError({
        code: ServerErrorCode.InvalidParams,
        message: `Prompt "${name}" needs argument(s): ${missing.map((argument) => argument.name).join(', ')}.`,
        context: { prompt: name },
      });
    }
    const result = await prompt.get(args, context);
    return typeof result === 'string'
      ? { messages: [{ role: 'user', content: { type: 'text', text: result } }] }
      : result;
  }

  async completePromptArgument(
    name: string,
    argument: CompletionArgument,
  ): Promise<CompleteResult | undefined> {
    const prompt = this.#prompts.get(name);
    if (prompt === undefined) return undefined;
    const completer = prompt.complete?.[argument.name];
    return toCompleteResult(
      completer ? await completer(argument.value, { arguments: argument.context }) : [],
    );
  }
}
