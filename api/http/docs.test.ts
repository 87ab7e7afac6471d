import { prose } from './docs';

describe('prose', () => {
  it.each([
    ['one line', prose`A short text.`, 'A short text.'],
    [
      'wrapped lines join with one space',
      prose`
      Reserves the bytes
      of the file.`,
      'Reserves the bytes of the file.',
    ],
    [
      'a blank line is a paragraph break',
      prose`
      First.

      Second
      line.`,
      'First.\n\nSecond line.',
    ],
    ['values are interpolated as written', prose`Needs ${'cloud.write'} (${413}).`, 'Needs cloud.write (413).'],
    ['backticks of Markdown code stay', prose`409 \`quota_exceeded\``, '409 `quota_exceeded`'],
  ])('%s', (_name, actual, expected) => expect(actual).toBe(expected));
});
