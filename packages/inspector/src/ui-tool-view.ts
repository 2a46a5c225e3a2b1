/**
 * How the page sees a tool: its summary (annotations, kind, the approval policy's verdict) and its
 * detail — the schemas plus the forms OpenAI (strict), Anthropic and Gemini would be given, with
 * what each conversion lost and whether the provider would refuse the tool, as `doctor` judges it.
 */
import {
  checkToolName,
  checkToolSchema,
  classifyToolKind,
  type JsonSchema,
  type LossyChange,
  type RegisteredTool,
  type SchemaTarget,
  toAnthropicTool,
  toGeminiFunction,
  toOpenAITool,
} from '@switchboard/core';
import type { UiProviderForm, UiToolDetail, UiToolSummary } from './ui-api.js';

/** The summary of a registered tool. */
export function toUiToolSummary(tool: RegisteredTool): UiToolSummary {
  const approval = tool.approval?.();
  return {
    server: tool.server,
    name: tool.originalName,
    publicName: tool.name,
    ...(tool.title === undefined ? {} : { title: tool.title }),
    ...(tool.description === '' ? {} : { description: tool.description }),
    ...(tool.annotations === undefined ? {} : { annotations: { ...tool.annotations } }),
    kind: classifyToolKind(tool),
    approval: approval?.decision ?? 'allow',
    ...(tool.app === undefined
      ? {}
      : {
          app: {
            ...(tool.app.resourceUri === undefined ? {} : { resourceUri: tool.app.resourceUri }),
            ...(tool.app.visibility === undefined ? {} : { visibility: [...tool.app.visibility] }),
          },
        }),
  };
}

/** The detail of a registered tool, with its provider forms. */
export function toUiToolDetail(tool: RegisteredTool): UiToolDetail {
  return {
    ...toUiToolSummary(tool),
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema }),
    providers: {
      openai: providerForm(tool, 'openai-strict'),
      anthropic: providerForm(tool, 'anthropic'),
      gemini: providerForm(tool, 'gemini'),
    },
  };
}

/** One provider's form: the converted tool, what the conversion lost, and a refusal if any. */
function providerForm(tool: RegisteredTool, target: SchemaTarget): UiProviderForm {
  const convertible = {
    name: tool.name,
    inputSchema: tool.inputSchema,
    ...(tool.title === undefined ? {} : { title: tool.title }),
    description: tool.description,
  };
  const { converted, schema, lossy } = convert(convertible, target);
  const problems = [
    ...checkToolName(tool.name, target),
    ...checkToolSchema(schema, target).filter((problem) => problem.severity === 'error'),
  ];
  const [first] = problems;
  return {
    tool: converted,
    lossy: lossy.map((change) => ({ kind: change.kind, path: change.path, detail: change.message })),
    ...(first ? { rejected: `${first.message}${first.path ? ` (at ${first.path})` : ''}` } : {}),
  };
}

function convert(
  tool: { name: string; title?: string; description: string; inputSchema: JsonSchema },
  target: SchemaTarget,
): { converted: unknown; schema: JsonSchema; lossy: LossyChange[] } {
  if (target === 'openai-strict') {
    const { result, lossy } = toOpenAITool(tool, { strict: true });
    return { converted: result, schema: result.function.parameters, lossy };
  }
  if (target === 'anthropic') {
    const { result, lossy } = toAnthropicTool(tool);
    return { converted: result, schema: result.input_schema, lossy };
  }
  const { result, lossy } = toGeminiFunction(tool);
  return { converted: result, schema: result.parameters ?? { type: 'object', properties: {} }, lossy };
}
