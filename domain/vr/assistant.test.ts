import { AssistantInputError, parseAssistantInput } from './assistant';

const codeOf = (raw: string) => {
  try {
    parseAssistantInput(raw);
    return null;
  } catch (err) {
    if (!(err instanceof AssistantInputError)) throw err;
    return err.code;
  }
};

describe('parseAssistantInput', () => {
  it('reads a question and a scene event', () => {
    expect(
      parseAssistantInput(
        JSON.stringify({ type: 'user_message', text: 'Where is the valve?', context: { currentStep: 'close-valve' } }),
      ),
    ).toEqual({
      type: 'user_message',
      text: 'Where is the valve?',
      context: { currentStep: 'close-valve' },
    });
    expect(parseAssistantInput(JSON.stringify({ type: 'event', name: 'step_changed' }))).toEqual({
      type: 'event',
      name: 'step_changed',
      detail: '',
      context: undefined,
    });
  });

  it('refuses what is not a JSON object', () => {
    expect(codeOf('{not json')).toBe('malformed_json');
    expect(codeOf('[1]')).toBe('invalid_message');
    expect(codeOf('"text"')).toBe('invalid_message');
  });

  it('checks the fields of each type', () => {
    expect(codeOf(JSON.stringify({ type: 'user_message', text: '   ' }))).toBe('invalid_message');
    expect(codeOf(JSON.stringify({ type: 'user_message', text: 'x'.repeat(4001) }))).toBe('invalid_message');
    expect(codeOf(JSON.stringify({ type: 'user_message', text: 'x'.repeat(4000) }))).toBeNull();
    expect(codeOf(JSON.stringify({ type: 'event', name: 'x'.repeat(101) }))).toBe('invalid_message');
    expect(codeOf(JSON.stringify({ type: 'event', name: 'step_changed', detail: 3 }))).toBe('invalid_message');
    expect(codeOf(JSON.stringify({ type: 'user_message', text: 'hi', context: [1] }))).toBe('invalid_message');
  });

  it('refuses text PostgreSQL could not store, and unknown types', () => {
    expect(codeOf(JSON.stringify({ type: 'user_message', text: 'a\u0000b' }))).toBe('invalid_message');
    expect(codeOf(JSON.stringify({ type: 'ping' }))).toBe('unknown_type');
  });
});
