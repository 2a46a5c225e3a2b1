import { describe, expect, it } from 'vitest';
import { toToolResultContent } from '../src/index.js';

// A 1×1 PNG, as server-everything's tiny image tools return.
const png =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

describe('toToolResultContent', () => {
  it('gives the text first and each image as a media part, with a placeholder in the text', () => {
    const content = toToolResultContent({
      content: [
        { type: 'text', text: 'Here is the image:' },
        { type: 'image', data: png, mimeType: 'image/png' },
      ],
    });
    expect(content.isError).toBe(false);
    expect(content.parts[0]).toEqual({ type: 'text', text: content.text });
    expect(content.text).toMatch(/^Here is the image:\n\n\[image: image\/png, \d+ B\]$/);
    expect(content.parts[1]).toEqual({ type: 'image', data: png, mimeType: 'image/png' });
    expect(content.omitted).toEqual([]);
  });

  it('turns media the model does not take into a stand-in that says so', () => {
    const content = toToolResultContent(
      { content: [{ type: 'audio', data: png, mimeType: 'audio/wav' }] },
      { modalities: ['image'] },
    );
    expect(content.parts).toHaveLength(1);
    expect(content.text).toMatch(/audio audio\/wav \(\d+ B\) not shown: this model does not take audio/);
    expect(content.omitted[0]?.reason).toBe('modality');
    expect(content.omitted[0]?.attachment.data).toBeUndefined();
  });

  it('keeps media within the byte budget and stands in for the rest', () => {
    const content = toToolResultContent(
      {
        content: [
          { type: 'image', data: png, mimeType: 'image/png' },
          { type: 'image', data: png, mimeType: 'image/png' },
        ],
      },
      { maxMediaBytes: 100 },
    );
    expect(content.parts.filter((part) => part.type === 'image')).toHaveLength(1);
    expect(content.omitted).toHaveLength(1);
    expect(content.omitted[0]?.reason).toBe('budget');
    expect(content.text).toMatch(/over the 100 B budget of media per tool result/);
  });

  it('makes an embedded binary resource a file part and keeps a text resource in the text', () => {
    const content = toToolResultContent({
      content: [
        { type: 'resource', resource: { uri: 'file:///r.pdf', mimeType: 'application/pdf', blob: png } },
        { type: 'resource', resource: { uri: 'file:///notes.txt', text: 'the notes' } },
      ],
    });
    expect(content.parts[1]).toEqual({
      type: 'file',
      data: png,
      mimeType: 'application/pdf',
      uri: 'file:///r.pdf',
    });
    expect(content.text).toContain('the notes');
    expect(content.parts).toHaveLength(2);
  });

  it('marks an error result and keeps structured content as data', () => {
    const failed = toToolResultContent({ isError: true, content: [{ type: 'text', text: 'no such city' }] });
    expect(failed.isError).toBe(true);
    expect(failed.text).toBe('no such city');
    const structured = toToolResultContent({ content: [], structuredContent: { temperature: 21 } });
    expect(structured.data).toEqual({ temperature: 21 });
    expect(structured.text).toContain('"temperature": 21');
  });
});
