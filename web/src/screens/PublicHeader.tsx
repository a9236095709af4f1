import { useTranslation } from 'react-i18next';
import { Brand } from '../components/Brand';
import { LanguageSelect } from '../components/LanguageSelect';
import { applyLanguage } from '../i18n/i18n';

/** Header for visitors who are not signed in: their language choice stays in this browser. */
export function PublicHeader() {
  const { t, i18n } = useTranslation();
  return (
    <header className="topbar topbar--public">
      <Brand />
      <span className="topbar__tagline">{t('app.tagline')}</span>
      <div className="topbar__spacer" />
      <LanguageSelect id="public-language" value={i18n.language} onChange={(code) => applyLanguage(i18n, code)} />
    </header>
  );
}
