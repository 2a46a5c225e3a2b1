/**
 * The neighbour of the adapter under test: a LangChain chat model that answers from a script
 * (AIMessages with `tool_calls`, written per turn) and records what it was given each turn, the
 * messages and the names of the tools bound to it. Everything else (the agent loop, the tool node,
 * the checkpointer, the tools and the MCP servers) is real.
 */

import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import type { StructuredToolInterface } from '@langchain/core/tools';

/** One scripted turn: a fixed answer, or one built from what the model was given. */
export type ScriptedTurn = AIMessage | ((messages: BaseMessage[]) => AIMessage);

/** What the model saw on one turn. */
export interface ModelTurn {
  messages: BaseMessage[];
  tools: string[];
}

export class ScriptedChatModel extends BaseChatModel {
  readonly turns: ModelTurn[] = [];
  private readonly script: ScriptedTurn[];
  private bound: string[] = [];

  constructor(script: ScriptedTurn[]) {
    super({});
    this.script = [...script];
  }

  _llmType(): string {
    return 'scripted';
  }

  override bindTools(tools: StructuredToolInterface[]): this {
    // A copy sharing the script and the record, as a real model's bindTools returns a new runnable.
    const copy = Object.create(this) as this;
    copy.bound = tools.map((tool) => tool.name);
    return copy;
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.turns.push({ messages: [...messages], tools: this.bound });
    const next = this.script.shift() ?? new AIMessage('(script ended)');
    const message = typeof next === 'function' ? next(messages) : next;
    return { generations: [{ message, text: message.text }] };
  }
}

/** An AIMessage calling one tool. */
export function callTool(name: string, args: Record<string, unknown>, id = `call_${name}`): AIMessage {
  return new AIMessage({ content: '', tool_calls: [{ id, name, args, type: 'tool_call' }] });
}
