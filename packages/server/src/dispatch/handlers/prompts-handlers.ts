/**
 * Prompts: lists fan out to every provider, a get goes to the first that has the prompt; a prompt
 * may ask the client for input first (`inputRequired(...)`, answered in each era as for tools).
 */
import { GetPromptRequestSchema, ListPromptsRequestSchema } from '@modelcontextprotocol/core';
import type { GetPromptResult, InputRequiredResult, Prompt, Result } from '@modelcontextprotocol/server';
import type { PromptContext } from '../../catalog/prompt-definition.js';
import { ServerError, ServerErrorCode } from '../../errors/server-error.js';
import type { InboundRequest } from '../../request/inbound-request.js';
import { answerInputRequired, isInputRequired, openRetry, type RoundInput } from '../../tools/multi-round.js';
import type { ServerScope } from '../server-scope.js';
import { checkParams } from './params-check.js';
import { providerContext } from './resources-handlers.js';

/** `prompts/list`. */
export async function listPrompts(request: InboundRequest, scope: ServerScope): Promise<Result> {
  checkParams(ListPromptsRequestSchema, request);
  const context = providerContext(request);
  const lists = await Promise.all(scope.promptProviders.map((provider) => provider.listPrompts(context)));
  return { prompts: lists.flat() as Prompt[] };
}

async function findPrompt(
  request: InboundRequest,
  scope: ServerScope,
  name: string,
  args: Record<string, string>,
  round: RoundInput,
): Promise<GetPromptResult | InputRequiredResult> {
  const context: PromptContext = {
    ...providerContext(request),
    clientCapabilities:
      (request.era === 'modern'
        ? request.envelope?.clientCapabilities
        : request.session?.clientCapabilities) ?? {},
    ...round,
  };
  for (const provider of scope.promptProviders) {
    const result = await provider.getPrompt(name, args, context);
    if (result !== undefined) return result;
  }
  const names = (
    await Promise.all(scope.promptProviders.map((provider) => provider.listPrompts(providerContext(request))))
  )
    .flat()
    .map((prompt) => prompt.name);
  throw new ServerError({
    code: ServerErrorCode.PromptNotFound,
    message: `Unknown prompt "${name}". ${names.length ? `Available prompts: ${names.slice(0, 20).join(', ')}${names.length > 20 ? ', …' : ''}.` : 'This server has no prompts.'}`,
    context: { prompt: name },
  });
}

/** `prompts/get`. */
export async function getPrompt(request: InboundRequest, scope: ServerScope): Promise<Result> {
  const { name, arguments: args = {} } = checkParams(GetPromptRequestSchema, request);
  const target = { method: 'prompts/get', target: name };
  const retry = await openRetry(request, target, scope.seal);
  const first: RoundInput = {};
  if (retry?.responses !== undefined) first.inputResponses = retry.responses;
  if (retry?.state?.handlerState !== undefined) first.requestState = retry.state.handlerState;
  const result = await findPrompt(request, scope, name, args, first);
  if (!isInputRequired(result)) return result as Result;
  return answerInputRequired(request, result, target, scope.seal, (round) =>
    findPrompt(request, scope, name, args, round),
  );
}
