import { createAccount, type Account } from '../support/factories';
import { createArticle, createSpace } from '../support/knowledge';
import { startStack, type TestStack } from '../support/stack';

/**
 * Search is accent-insensitive in every space language (migration …20261209000000_knowledge_search_unaccent):
 * people type "equipe" for "équipe". Regression test of the audit (a French help centre searched without accents).
 */
describe('knowledge search without accents', () => {
  let stack: TestStack;
  let owner: Account;
  let space: { id: string; slug: string };
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    owner = await createAccount(stack);
    space = (await createSpace(stack, owner, { name: 'Aide', mode: 'public_kb', language: 'french' })) as unknown as {
      id: string;
      slug: string;
    };
    const a = await createArticle(stack, owner, space.id, {
      title: 'Créer une équipe',
      contentMarkdown: 'Invitez les membres de votre équipe depuis les paramètres du réseau.',
    });
    await stack.http.post(`/api/knowledge/articles/${a.id}/publish`).set(owner.auth).expect(200);
  });
  afterAll(() => stack?.close());

  const member = (q: string, extra: Record<string, string> = {}) =>
    stack.http
      .get('/api/knowledge/search')
      .set(owner.auth)
      .query({ q, ...extra });
  const titles = (res: { body: { items: { title: string }[] } }) => res.body.items.map((h) => h.title);

  it('control: the accented query finds the article', async () => {
    expect(titles(await member('équipe'))).toEqual(['Créer une équipe']);
  });

  it('member search: "equipe" (no accent) finds "Créer une équipe", the accented word marked in the snippet', async () => {
    const res = await member('equipe');
    expect(res.status).toBe(200);
    expect(titles(res)).toEqual(['Créer une équipe']);
    expect(res.body.items[0]).toMatchObject({ fuzzy: false });
    expect(res.body.items[0].snippet).toContain('<mark>équipe</mark>');
    // Accents where the text has none are ignored too.
    expect(titles(await member('RÉSEAU'))).toEqual(['Créer une équipe']);
  });

  it('public search: "creer equipe" and "reseau" find the published article', async () => {
    const a = await stack.http.get(`/api/knowledge/public/spaces/${space.slug}/search`).query({ q: 'creer equipe' });
    expect(a.status).toBe(200);
    expect(titles(a)).toEqual(['Créer une équipe']);
    const b = await stack.http.get(`/api/knowledge/public/spaces/${space.slug}/search`).query({ q: 'reseau' });
    expect(titles(b)).toEqual(['Créer une équipe']);
  });

  it('typo match (pg_trgm) compares unaccented titles: "equipr" finds "Créer une équipe"', async () => {
    const res = await member('equipr');
    expect(res.body.items[0]).toMatchObject({ title: 'Créer une équipe', fuzzy: true });
  });

  it('snippets a long body around its first match found without accents', async () => {
    const filler = 'alpha bravo charlie delta echo foxtrot golf hotel '.repeat(300);
    const article = await createArticle(stack, owner, space.id, {
      title: 'Notes de version',
      contentMarkdown: `${filler}Le débogueur distant démarre seul. ${filler}`,
    });
    const [hit] = (await member('debogueur', { spaceId: space.id })).body.items;
    expect(hit).toMatchObject({ id: article.id, fuzzy: false });
    expect(hit.snippet).toContain('<mark>débogueur</mark> distant');
    expect(hit.snippet.length).toBeLessThan(600);
  });

  it.each([
    [
      'german',
      'Straßenverkehr in Österreich',
      'Die Größe der Häuser.',
      ['strassenverkehr', 'osterreich', 'grosse', 'hauser'],
    ],
    [
      'spanish',
      'Información del camión',
      'Configuración de la aplicación.',
      ['informacion', 'camion', 'configuracion'],
    ],
    ['portuguese', 'Configuração da conexão', 'Não há sessão ativa.', ['configuracao', 'conexao', 'sessao']],
    ['italian', 'Perché la città', 'Attività già completata.', ['perche', 'citta', 'attivita']],
    ['dutch', 'Financiële coördinatie', 'Een reeël ideeën overzicht.', ['financiele', 'coordinatie', 'ideeen']],
    ['english', 'Café résumé naïve', 'The fiancée’s rôle.', ['cafe', 'resume', 'naive', 'fiancee']],
    ['simple', 'Ärger über Öl', 'Déjà vu.', ['arger', 'uber', 'ol', 'deja']],
  ])('%s: words typed without accents find the article', async (language, title, contentMarkdown, queries) => {
    const s = await createSpace(stack, owner, { name: `Space ${language}`, language });
    const article = await createArticle(stack, owner, s.id, { title, contentMarkdown });
    for (const q of queries) {
      const res = await member(q, { spaceId: s.id });
      expect({ q, ids: res.body.items.map((h: { id: string }) => h.id) }).toEqual({ q, ids: [article.id] });
    }
  });
});
