import type { i18n as I18n, TFunction } from 'i18next';
import { isLanguageCode, LANGUAGES, toBcp47 } from '../i18n/languages';
import { paths } from '../router/routes';

/** The spec's help topics, by file name; each has its title key help.topic.<file> in every catalogue. */
export const HELP_TOPICS = [
  'about',
  'design-method',
  'menu-bar',
  'managing-projects',
  'project-information',
  'design-functions',
  'design-parameters',
  'irregular-catchment',
  'rainfall-map',
  'point-inflows',
  'accessories',
  'access-points',
  'advanced-mode',
  'design-specification',
  'system-information',
  'slot-channel',
  'system-installation',
  'design-support',
  'allow-flooding',
] as const;

/** A topic's title in the interface language, the server's English title for a topic this build does not know. */
export function topicTitle(t: TFunction, i18n: I18n, file: string, english: string): string {
  const key = `help.topic.${file}`;
  return i18n.exists(key) ? (t as unknown as (k: string) => string)(key) : english;
}

/** The topic that explains the screen at this path: the top bar's help button opens it. */
export function topicForPath(pathname: string): string {
  if (pathname === paths.home || pathname === '' || /^\/[0-9a-f-]{36}$/i.test(pathname) || /^\/projects\/\d+$/.test(pathname)) return 'design-parameters';
  if (pathname.startsWith(paths.sharedProjects)) return 'managing-projects';
  if (pathname.startsWith('/staff')) return 'menu-bar';
  return 'about';
}

/** The help page at the topic for a screen. */
export function helpHref(pathname: string): string {
  return `${paths.help}?topic=${topicForPath(pathname)}`;
}

/** A language's name in the interface language ("Französisch" for fr in German), its own name without Intl. */
export function languageLabel(code: string, interfaceLanguage: string): string {
  const own = LANGUAGES.find((l) => l.code === code)?.name ?? code;
  if (!isLanguageCode(code) || !isLanguageCode(interfaceLanguage)) return own;
  try {
    return new Intl.DisplayNames([toBcp47(interfaceLanguage)], { type: 'language' }).of(toBcp47(code)) ?? own;
  } catch {
    return own;
  }
}
