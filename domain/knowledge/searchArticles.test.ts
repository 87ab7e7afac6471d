import { snippetHtml } from './searchArticles';
import { CLOSE, OPEN } from './store/search';

describe('snippetHtml', () => {
  it('escapes the text and marks the matches', () => {
    expect(snippetHtml(`Run ${OPEN}install${CLOSE} <as "root"> & go`)).toBe(
      'Run <mark>install</mark> &lt;as &quot;root&quot;&gt; &amp; go',
    );
  });

  it('cannot be tricked into markup by the text itself', () => {
    expect(snippetHtml('<mark>fake</mark>')).toBe('&lt;mark&gt;fake&lt;/mark&gt;');
  });

  it('is empty without a headline', () => {
    expect(snippetHtml(null)).toBe('');
  });
});
