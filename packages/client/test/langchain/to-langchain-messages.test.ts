import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { everythingStdio } from '@switchboard/test-helpers';
import { afterEach, describe, expect, it } from 'vitest';
import { connectMcp, type McpConnection } from '../../src/index.js';
import { toLangChainMessages, toLangChainResourceContent } from '../../src/langchain/index.js';

const open: McpConnection[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});

describe('toLangChainMessages and toLangChainResourceContent', () => {
  it('turns server-everything’s prompts and resources into LangChain messages and blocks', async () => {
    const connection = await connectMcp({ everything: everythingStdio() }, { approval: 'never' });
    open.push(connection);
    const client = connection.client('everything');
    if (client === undefined) throw new Error('no client');
    const simple = toLangChainMessages(await client.getPrompt('simple-prompt'));
    expect(simple[0]).toBeInstanceOf(HumanMessage);
    expect(typeof simple[0]?.content).toBe('string');
    expect(simple[0]?.text.length).toBeGreaterThan(0);

    // A prompt embedding a binary resource: text, then the blob as a file block.
    const embedded = toLangChainMessages(
      await client.getPrompt('resource-prompt', { resourceType: 'Blob', resourceId: '1' }),
    );
    expect(embedded.map((message) => message.getType())).toEqual(['human', 'human']);
    expect(embedded[1]?.content).toEqual([
      {
        type: 'file',
        data: expect.any(String),
        mimeType: 'text/plain',
        metadata: { uri: 'demo://resource/dynamic/blob/1' },
      },
    ]);

    const [document] = toLangChainResourceContent(
      await client.readResource('demo://resource/static/document/architecture.md'),
    );
    expect(document).toMatchObject({ type: 'text', text: expect.stringContaining('Architecture') });
  });

  it('keeps roles and media of a prompt result', () => {
    const messages = toLangChainMessages({
      messages: [
        { role: 'user', content: { type: 'text', text: 'look' } },
        { role: 'assistant', content: { type: 'text', text: 'at what?' } },
        { role: 'user', content: { type: 'image', data: 'aGVsbG8=', mimeType: 'image/png' } },
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: { uri: 'file:///a.pdf', mimeType: 'application/pdf', blob: 'JVBE' },
          },
        },
      ],
    });
    expect(messages.map((message) => message.constructor)).toEqual([
      HumanMessage,
      AIMessage,
      HumanMessage,
      HumanMessage,
    ]);
    expect(messages[1]?.content).toBe('at what?');
    expect(messages[2]?.content).toEqual([{ type: 'image', data: 'aGVsbG8=', mimeType: 'image/png' }]);
    expect(messages[3]?.content).toEqual([
      { type: 'file', data: 'JVBE', mimeType: 'application/pdf', metadata: { uri: 'file:///a.pdf' } },
    ]);
  });
});
