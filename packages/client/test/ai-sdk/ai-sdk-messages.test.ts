// MCP prompts and resources of a real server-everything as AI SDK messages, and those messages
// accepted by the AI SDK's own loop (a scripted model records the prompt it was sent).

import { everythingStdio } from '@switchboard/test-helpers';
import { generateText } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toAISDKMessages, toAISDKResourceContent } from '../../src/ai-sdk/index.js';
import { createMcpClient, type McpClient } from '../../src/index.js';
import { scriptedModel } from './scripted-model.js';

let client: McpClient;
beforeAll(async () => {
  client = await createMcpClient('everything', everythingStdio());
});
afterAll(async () => {
  await client?.close();
});

describe('toAISDKMessages', () => {
  it('turns a prompt with an embedded text resource into user messages', async () => {
    const prompt = await client.getPrompt('resource-prompt', { resourceType: 'Text', resourceId: '1' });
    const messages = toAISDKMessages(prompt);
    expect(messages).toEqual([
      {
        role: 'user',
        content: [{ type: 'text', text: expect.stringContaining('Text resource with id: 1') }],
      },
      { role: 'user', content: [{ type: 'text', text: expect.stringContaining('Resource 1') }] },
    ]);
    // The AI SDK takes them as they are, and the model gets them in order.
    const model = scriptedModel([{ text: 'Analysed.' }]);
    await generateText({ model, messages });
    expect(model.doGenerateCalls[0]?.prompt.map((message) => message.role)).toEqual(['user', 'user']);
  });

  it('gives a binary resource as a file part, and images and links in their own parts', async () => {
    const prompt = await client.getPrompt('resource-prompt', { resourceType: 'Blob', resourceId: '2' });
    expect(toAISDKMessages(prompt)[1]).toEqual({
      role: 'user',
      content: [{ type: 'file', data: expect.any(String), mediaType: 'text/plain', filename: '2' }],
    });
    expect(
      toAISDKMessages({
        messages: [
          { role: 'assistant', content: { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' } },
          { role: 'user', content: { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' } },
          {
            role: 'user',
            content: { type: 'resource_link', uri: 'file:///a.txt', name: 'a', mimeType: 'text/plain' },
          },
        ],
      }),
    ).toEqual([
      // An assistant message takes no image parts in the AI SDK: a file part of an image type instead.
      { role: 'assistant', content: [{ type: 'file', data: 'iVBORw0KGgo=', mediaType: 'image/png' }] },
      { role: 'user', content: [{ type: 'image', image: 'iVBORw0KGgo=', mediaType: 'image/png' }] },
      { role: 'user', content: [{ type: 'text', text: '[resource file:///a.txt (text/plain)]' }] },
    ]);
  });
});

describe('toAISDKResourceContent', () => {
  it('turns a read resource into the content of a user message', async () => {
    const text = await client.readResource('demo://resource/dynamic/text/1');
    expect(toAISDKResourceContent(text)).toEqual([
      { type: 'text', text: expect.stringContaining('Resource 1') },
    ]);
    const blob = await client.readResource('demo://resource/dynamic/blob/1');
    const content = toAISDKResourceContent(blob);
    expect(content).toEqual([
      { type: 'file', data: expect.any(String), mediaType: 'text/plain', filename: '1' },
    ]);
    const model = scriptedModel([{ text: 'Read.' }]);
    await generateText({ model, messages: [{ role: 'user', content }] });
    expect(model.doGenerateCalls[0]?.prompt[0]).toMatchObject({
      role: 'user',
      content: [{ type: 'file', mediaType: 'text/plain' }],
    });
  });
});
