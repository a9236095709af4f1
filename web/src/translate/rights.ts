/** The language a translator starts in: their own, unless that is English. */
export function startLanguage(userLanguage: string | undefined): string {
  return userLanguage && userLanguage !== 'en' ? userLanguage : 'de';
}

/** Rights to the translators' screens: translators, and administrators. */
export function mayTranslate(user: { is_translator?: boolean; is_admin?: boolean } | null | undefined): boolean {
  return Boolean(user?.is_translator || user?.is_admin);
}
