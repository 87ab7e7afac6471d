import { githubEffect } from './githubEffect';

const payload = (subject: 'issue' | 'pull_request', action: string, extra: Record<string, unknown> = {}) => ({
  action,
  repository: { full_name: 'Acme/Widgets' },
  [subject]: { number: 42, updated_at: '2026-12-01T10:00:00Z', ...extra },
});

describe('githubEffect', () => {
  it('closes an issue as done and a pull request as resolved, lower-casing the repository', () => {
    expect(githubEffect('issues', payload('issue', 'closed'))).toEqual({
      repository: 'acme/widgets',
      number: 42,
      status: 'done',
      updatedAt: new Date('2026-12-01T10:00:00Z'),
      updatedAtText: '2026-12-01T10:00:00Z',
    });
    expect(githubEffect('pull_request', payload('pull_request', 'closed'))?.status).toBe('resolved');
  });

  it('reopens either as in_progress', () => {
    expect(githubEffect('issues', payload('issue', 'reopened'))?.status).toBe('in_progress');
    expect(githubEffect('pull_request', payload('pull_request', 'reopened'))?.status).toBe('in_progress');
  });

  it('ignores other events and actions', () => {
    expect(githubEffect('push', payload('issue', 'closed'))).toBeNull();
    expect(githubEffect('issues', payload('issue', 'opened'))).toBeNull();
    expect(githubEffect('issues', payload('issue', 'edited'))).toBeNull();
  });

  it('reads the subject of its event: an issues event with only a pull_request is nothing', () => {
    expect(githubEffect('issues', payload('pull_request', 'closed'))).toBeNull();
  });

  it('refuses payloads without a usable repository, number or updated_at', () => {
    expect(githubEffect('issues', { ...payload('issue', 'closed'), repository: 'acme/widgets' })).toBeNull();
    expect(githubEffect('issues', payload('issue', 'closed', { number: 0 }))).toBeNull();
    expect(githubEffect('issues', payload('issue', 'closed', { number: 4.5 }))).toBeNull();
    expect(githubEffect('issues', payload('issue', 'closed', { number: '42' }))).toBeNull();
    expect(githubEffect('issues', payload('issue', 'closed', { updated_at: 'yesterday' }))).toBeNull();
    expect(githubEffect('issues', payload('issue', 'closed', { updated_at: undefined }))).toBeNull();
    expect(githubEffect('issues', { action: 'closed', repository: { full_name: 'a/b' }, issue: [] })).toBeNull();
  });
});
