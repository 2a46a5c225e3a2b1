/** `completion/complete`: asked of the provider that owns the prompt or template (empty values otherwise). */
import { CompleteRequestSchema } from '@modelcontextprotocol/core';
import type { Result } from '@modelcontextprotocol/server';
import type { InboundRequest } from '../../request/inbound-request.js';
import type { ServerScope } from '../server-scope.js';
import { checkParams } from './params-check.js';
import { providerContext } from './resources-handlers.js';

const noValues = { completion: { values: [], total: 0, hasMore: false } };

/** `completion/complete`. */
export async function complete(request: InboundRequest, scope: ServerScope): Promise<Result> {
  const params = checkParams(CompleteRequestSchema, request);
  const argument = {
    name: params.argument.name,
    value: params.argument.value,
    context: params.context?.arguments ?? {},
  };
  const context = providerContext(request);
  if (params.ref.type === 'ref/prompt') {
    for (const provider of scope.promptProviders) {
      const result = await provider.completePromptArgument?.(params.ref.name, argument, context);
      if (result !== undefined) return result as Result;
    }
    return noValues;
  }
  for (const provider of scope.resourceProviders) {
    const result = await provider.completeTemplateArgument?.(params.ref.uri, argument, context);
    if (result !== undefined) return result as Result;
  }
  return noValues;
}
