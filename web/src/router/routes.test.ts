import { describe, expect, it } from 'vitest';
import { matchRoute, paths } from './routes';

describe('matchRoute', () => {
  it('knows the routes of this round', () => {
    expect(matchRoute('/', '')).toEqual({ name: 'home', shareID: null });
    expect(matchRoute('/sign-up', '')).toEqual({ name: 'signUp' });
    expect(matchRoute('/sign-up/', '')).toEqual({ name: 'signUp' });
    expect(matchRoute('/password-reset', '')).toEqual({ name: 'passwordResetBadLink' });
    expect(matchRoute('/password-reset/MTI', '?token=c4t-9f2a')).toEqual({
      name: 'passwordReset',
      userID: 'MTI',
      token: 'c4t-9f2a',
    });
    expect(matchRoute('/password-reset/MTI', '')).toMatchObject({ token: '' });
  });

  it('knows the software features and feedback pages', () => {
    expect(matchRoute('/features', '')).toEqual({ name: 'features' });
    expect(matchRoute('/feedback/', '')).toEqual({ name: 'feedback' });
    expect(matchRoute(paths.features, '')).toEqual({ name: 'features' });
    expect(matchRoute(paths.feedback, '')).toEqual({ name: 'feedback' });
  });

  it('reads a shared project id at the root', () => {
    expect(matchRoute('/3f2b8c1e-9a4d-4e1b-8f7a-2c6d5e4f3a2b', '')).toEqual({
      name: 'home',
      shareID: '3f2b8c1e-9a4d-4e1b-8f7a-2c6d5e4f3a2b',
    });
  });

  it('opens a project by its support id, and lists shared projects', () => {
    expect(matchRoute('/projects/1234', '')).toEqual({ name: 'home', shareID: null, supportID: '1234' });
    expect(matchRoute('/projects', '')).toEqual({ name: 'sharedProjects', creator: null });
    expect(matchRoute('/projects/', '?creator=ada')).toEqual({ name: 'sharedProjects', creator: 'ada' });
    expect(matchRoute('/projects/12a', '')).toEqual({ name: 'notFound' });
  });

  it('opens a project\'s timeline, and links to it', () => {
    const id = '01a218f3-fa04-792c-8f4b-fb9152d28fcc';
    expect(matchRoute(`/staff/timeline/${id}`, '')).toEqual({ name: 'timeline', projectId: id });
    expect(matchRoute(paths.timeline(id), '')).toEqual({ name: 'timeline', projectId: id });
    expect(matchRoute('/staff/timeline/', '')).not.toMatchObject({ name: 'timeline' });
  });

  it('knows the staff area and its children', () => {
    expect(matchRoute('/staff', '')).toEqual({ name: 'staff', view: { kind: 'home' } });
    expect(matchRoute('/staff/', '')).toEqual({ name: 'staff', view: { kind: 'home' } });
    expect(matchRoute('/staff/calculations', '')).toEqual({ name: 'staff', view: { kind: 'calculations' } });
    expect(matchRoute('/staff/channels', '')).toEqual({ name: 'staff', view: { kind: 'channels' } });
    expect(matchRoute('/staff/map', '')).toEqual({ name: 'staff', view: { kind: 'map' } });
    expect(matchRoute('/staff/user/u-1', '')).toEqual({ name: 'staff', view: { kind: 'user', userID: 'u-1' } });
    expect(matchRoute('/staff/user/u-1/p-2/', '')).toEqual({ name: 'staff', view: { kind: 'userProject', userID: 'u-1', superID: 'p-2' } });
    // The translators' editors are screens of their own.
    expect(matchRoute('/staff/translate', '')).toEqual({ name: 'translate', editor: 'help', redirected: true });
    expect(matchRoute('/staff/translate/documents', '')).toEqual({ name: 'translate', editor: 'documents' });
    expect(matchRoute('/staff/user', '')).toEqual({ name: 'notFound' });
    expect(matchRoute('/staff/user/a/b/c', '')).toEqual({ name: 'notFound' });
    expect(matchRoute('/staff/elsewhere', '')).toEqual({ name: 'notFound' });
    expect(matchRoute('/help', '')).toEqual({ name: 'help', topic: null });
  });

  it('does not guess at anything else', () => {
    expect(matchRoute('/nowhere', '')).toEqual({ name: 'notFound' });
    expect(matchRoute('/sign-up/extra', '')).toEqual({ name: 'notFound' });
  });
});
