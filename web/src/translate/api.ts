import type { Send } from '../api/http';

/** The kinds of text the editors change: catalogue messages and help topics. */
export type TextKind = 'message' | 'help';

/** One key of a language beside its English text, as the editors list it. */
export interface TextRow {
  key: string;
  english: string;
  text: string;
  shipped: string;
  overridden: boolean;
  by_name?: string;
  at?: string;
  /** The English text changed since this text was written. */
  stale: boolean;
  placeholders: string[];
}

export interface TextsAnswer {
  language: string;
  kind: TextKind;
  plural_forms: string[];
  revision: number;
  rows: TextRow[];
}

export interface HelpTopic {
  topic_title: string;
  topic_file: string;
  help_type: 'T' | 'V';
  /** Languages with a text of their own; the rest fall back to English. */
  languages: string[];
}

export interface WebLink {
  label: string;
  url: string;
}

export interface WebLinks {
  region: string;
  links: WebLink[];
  partner?: { name: string; logo: string; url?: string } | null;
}

/** The translators' calls and the readers' help and link calls. */
export function createTranslationApi(open: Send, authed: Send) {
  const base = (kind: TextKind, language: string) => `/translations/${kind}/${language}/`;
  return {
    texts: (kind: TextKind, language: string) => authed<TextsAnswer>('GET', base(kind, language)),
    set: (kind: TextKind, language: string, key: string, text: string) =>
      authed<{ revision: number }>('POST', base(kind, language), { key, text }),
    reset: (kind: TextKind, language: string, key: string) =>
      authed<{ revision: number }>('POST', `${base(kind, language)}reset/`, { key }),
    importTexts: (kind: TextKind, language: string, texts: Record<string, string>) =>
      authed<{ changed: number }>('POST', `${base(kind, language)}import/`, texts),
    preview: (markdown: string) => authed<{ html: string }>('POST', '/translations/preview/', { markdown }),
    helpTopics: () => open<HelpTopic[]>('GET', '/drainage/help-topics'),
    webLinks: () => authed<WebLinks>('GET', '/drainage/weblinks/'),
  };
}

export type TranslationApi = ReturnType<typeof createTranslationApi>;

/** The error text of a refused call, as the server words it. */
export function serverError(error: unknown): string | null {
  const body = (error as { body?: unknown } | null)?.body;
  if (body && typeof body === 'object' && 'error' in body && typeof body.error === 'string') return body.error;
  return null;
}
