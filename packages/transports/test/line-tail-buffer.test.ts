import { describe, expect, it } from 'vitest';
import { LineTailBuffer } from '../src/line-tail-buffer.js';

describe('LineTailBuffer', () => {
  it('keeps the last lines within the line bound', () => {
    const tail = new LineTailBuffer({ maxLines: 3 });
    for (let index = 1; index <= 5; index++) tail.push(`line ${index}`);
    expect(tail.toString()).toBe('line 3\nline 4\nline 5');
  });

  it('keeps within the character bound, trimming a huge line to its end', () => {
    const tail = new LineTailBuffer({ maxLines: 50, maxCharacters: 10 });
    tail.push('aaaa');
    tail.push('bbbb');
    tail.push('cccc');
    expect(tail.toString()).toBe('bbbb\ncccc');
    tail.push('0123456789abcdef');
    expect(tail.toString()).toBe('6789abcdef');
  });
});
