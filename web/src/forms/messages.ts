/**
 * A message for the user: a catalogue key the client translates, or text the
 * server already worded (shown as is unless it happens to be a catalogue key).
 */
export type Message = { key: string; values?: Record<string, string> } | { text: string };

export type FieldErrors<F extends string> = Partial<Record<F, Message[]>>;

/** Keys of a 400 body that carry errors for the whole form rather than one field. */
const FORM_LEVEL_KEYS = new Set(['error', 'detail', 'non_field_errors']);

export interface ServerErrors<F extends string> {
  fields: FieldErrors<F>;
  form: Message[];
  /** Keys the form does not know, with their messages (uid/token for a reset link, say). */
  other: Record<string, string[]>;
}

/**
 * Splits a 400 body shaped {"field": ["message", ...], ...} or {"error": "..."}
 * into per-field messages, passing each through reword so familiar server
 * phrasings become the product's own translated sentences.
 */
export function readServerErrors<F extends string>(
  body: unknown,
  fields: readonly F[],
  reword: (field: F, text: string) => Message,
): ServerErrors<F> {
  const result: ServerErrors<F> = { fields: {}, form: [], other: {} };
  if (typeof body === 'string' && body.trim() !== '') {
    result.form.push({ text: body });
    return result;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return result;

  for (const [key, raw] of Object.entries(body as Record<string, unknown>)) {
    const texts = toTexts(raw);
    if (texts.length === 0) continue;
    if ((fields as readonly string[]).includes(key)) {
      const field = key as F;
      result.fields[field] = texts.map((text) => reword(field, text));
    } else if (FORM_LEVEL_KEYS.has(key)) {
      result.form.push(...texts.map((text) => ({ text })));
    } else {
      result.other[key] = texts;
    }
  }
  return result;
}

function toTexts(raw: unknown): string[] {
  if (typeof raw === 'string') return [raw];
  if (Array.isArray(raw)) return raw.filter((item): item is string => typeof item === 'string');
  return [];
}

export function hasErrors<F extends string>(errors: FieldErrors<F>): boolean {
  return Object.values(errors).some((list) => Array.isArray(list) && list.length > 0);
}

export function withoutField<F extends string>(errors: FieldErrors<F>, field: F): FieldErrors<F> {
  if (!errors[field]) return errors;
  const next = { ...errors };
  delete next[field];
  return next;
}

/**
 * The server's English sentences that are the same for any field, as the
 * product's translated ones; undefined when the text is not one of them.
 */
export function rewordCommon(text: string): Message | undefined {
  if (/^passwords do not match/i.test(text)) return { key: 'common.passwordsDoNotMatch' };
  const tooLong = /no more than (\d+) characters|at most (\d+) characters/i.exec(text);
  if (tooLong) return { key: 'common.tooLong', values: { max: tooLong[1] ?? tooLong[2] ?? '' } };
  const tooShort = /too short.*?at least (\d+) characters/i.exec(text);
  if (tooShort) return { key: 'common.passwordTooShort', values: { min: tooShort[1] ?? '' } };
  if (/only spaces/i.test(text)) return { key: 'common.passwordOnlySpaces' };
  return undefined;
}

/** A blank or missing value, in Django's words or the Go server's. */
export function isRequiredMessage(text: string): boolean {
  return /may not be (blank|null|empty)|is required|^please (enter|select) (a|an) /i.test(text) && !/valid/i.test(text);
}

/** The shortest password the server accepts (domain/account MinPasswordLength). */
export const MIN_PASSWORD_LENGTH = 8;
