import { describe, expect, it } from 'vitest';
import { matchRoute } from '../router/routes';
import { fetchTopic } from './helpMachine';
import { helpHref, HELP_TOPICS, languageLabel, topicForPath } from './topics';
import { formatDuration, parseManifest } from './videos';

describe('help', () => {
  it('falls back to English when the language has no text of a topic', async () => {
    const pages: Record<string, string> = { 'fr/about': '<h1>À propos</h1>', 'en/about': '<h1>About</h1>', 'en/allow-flooding': '<h1>Allow flooding</h1>' };
    const page = async (language: string, file: string) => pages[`${language}/${file}`] ?? null;
    expect(await fetchTopic({ page }, 'fr', 'about')).toEqual({ file: 'about', html: '<h1>À propos</h1>', fallback: false });
    expect(await fetchTopic({ page }, 'fr', 'allow-flooding')).toEqual({ file: 'allow-flooding', html: '<h1>Allow flooding</h1>', fallback: true });
    await expect(fetchTopic({ page }, 'fr', 'nothing')).rejects.toThrow();
  });

  it('opens the topic of the screen', () => {
    expect(topicForPath('/')).toBe('design-parameters');
    expect(topicForPath('/projects/42')).toBe('design-parameters');
    expect(topicForPath('/projects')).toBe('managing-projects');
    expect(topicForPath('/staff/translate/help')).toBe('menu-bar');
    expect(helpHref('/sign-up')).toBe('/help?topic=about');
    expect(HELP_TOPICS).toHaveLength(19);
  });

  it('names a language in the interface language', () => {
    expect(languageLabel('fr', 'de')).toBe('Französisch');
    expect(languageLabel('fr', 'fr')).toBe('français');
  });

  it('routes /help and the translators\' screens', () => {
    expect(matchRoute('/help', '?topic=about')).toEqual({ name: 'help', topic: 'about' });
    expect(matchRoute('/staff/translate/documents', '')).toEqual({ name: 'translate', editor: 'documents' });
    expect(matchRoute('/staff/translate', '')).toEqual({ name: 'translate', editor: 'help', redirected: true });
    expect(matchRoute('/staff/translate/poems', '')).toEqual({ name: 'notFound' });
  });

  it('reads the video manifest, leaving out entries that are not well-formed', () => {
    const good = { file: 'design-a-run.webm', title: 'help.videos.designRun', poster: 'design-a-run.jpg', duration: 31.5, width: 960, height: 600 };
    expect(parseManifest({ videos: [good] })).toEqual([good]);
    expect(parseManifest({ videos: [{ ...good, file: '../secret.webm' }] })).toEqual([]);
    expect(parseManifest({ videos: [{ ...good, file: 'clip.mp4' }] })).toEqual([]);
    expect(parseManifest({ videos: [{ ...good, title: 'help.videos.unknown' }] })).toEqual([]);
    expect(parseManifest({ videos: [{ ...good, duration: '31' }] })).toEqual([]);
    expect(parseManifest(null)).toEqual([]);
    expect(parseManifest({})).toEqual([]);
  });

  it('writes a video length as m:ss', () => {
    expect(formatDuration(31.5)).toBe('0:32');
    expect(formatDuration(75)).toBe('1:15');
    expect(formatDuration(9)).toBe('0:09');
  });
});
