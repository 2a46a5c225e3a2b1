/**
 * An offline LangChain chat model for the examples: it answers from a script of AIMessages (tool
 * calls, then a final answer), each built from the messages so far, so the example runs without a
 * key while LangGraph's own agent loop does the rest.
 */

import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import type { StructuredToolInterface } from '@langchain/core/tools';

/** One turn of the script, built from the conversation so far. */
export type ChatScriptTurn = (messages: BaseMessage[]) => AIMessage;

/** A chat model that plays a script. */
export class ScriptedChatModel extends BaseChatModel {
  private readonly script: ChatScriptTurn[];

  constructor(script: ChatScriptTurn[]) {
    super({});
    this.script = [...script];
  }

  _llmType(): string {
    return 'scripted';
  }

  // A real model sends the tool schemas to its API; the script already knows which tool it calls.
  override bindTools(_tools: StructuredToolInterface[]): this {
    return this;
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const turn = this.script.shift();
    const message = turn ? turn(messages) : new AIMessage('(the script has ended)');
    return { generations: [{ message, text: message.text }] };
  }
}
