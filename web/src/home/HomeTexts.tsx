import './home.css';
import { useTranslation } from 'react-i18next';
import { API_BASE } from '../api/http';
import { paths } from '../router/routes';

/** GET /api/drainage/feature-sheet/{version}/{language}/: a feature sheet PDF made by the document generator. */
export function featureSheetHref(version: 'uk' | 'int', language: string): string {
  return `${API_BASE}/drainage/feature-sheet/${version}/${language}/`;
}

/**
 * The logged-out page's texts under the login form (spec section 2,
 * marketing and legal texts): the software features of both versions with
 * their feature sheets, design reassurance, confidentiality, experience,
 * feedback, privacy and cookies. Translators edit every one of them.
 */
export function HomeTexts() {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  return (
    <div className="home-texts">
      <section className="home-texts__features" aria-labelledby="features-title">
        <h2 id="features-title">{t('home.features.title')}</h2>
        <ul className="home-texts__points">
          <li>{t('home.features.point1')}</li>
          <li>{t('home.features.point2')}</li>
          <li>{t('home.features.point3')}</li>
          <li>{t('home.features.point4')}</li>
        </ul>
        <div className="home-texts__versions">
          <article>
            <h3>{t('home.features.uk.title')}</h3>
            <p>{t('home.features.uk.text')}</p>
            <a className="button button--primary button--small" href={featureSheetHref('uk', language)} download data-testid="sheet-uk">
              {t('home.sheets.uk')}
            </a>
          </article>
          <article>
            <h3>{t('home.features.int.title')}</h3>
            <p>{t('home.features.int.text')}</p>
            <a className="button button--primary button--small" href={featureSheetHref('int', language)} download data-testid="sheet-int">
              {t('home.sheets.int')}
            </a>
          </article>
        </div>
        <p className="home-texts__disclaimer">{t('home.features.disclaimer')}</p>
      </section>
      <section aria-labelledby="reassurance-title">
        <h2 id="reassurance-title">{t('home.reassurance.title')}</h2>
        <p>{t('home.reassurance.text')}</p>
      </section>
      <section aria-labelledby="confidentiality-title">
        <h2 id="confidentiality-title">{t('home.confidentiality.title')}</h2>
        <p>{t('home.confidentiality.text')}</p>
      </section>
      <section aria-labelledby="experience-title">
        <h2 id="experience-title">{t('home.experience.title')}</h2>
        <p>{t('home.experience.text')}</p>
      </section>
      <section aria-labelledby="feedback-title">
        <h2 id="feedback-title">{t('home.feedback.title')}</h2>
        <p>{t('home.feedback.europe')}</p>
        <p>{t('home.feedback.uk')}</p>
      </section>
      <section aria-labelledby="privacy-title">
        <h2 id="privacy-title">{t('home.privacy.title')}</h2>
        <p>{t('home.privacy.text')}</p>
        <h2>{t('home.cookies.title')}</h2>
        <p>{t('cookies.text')}</p>
        <p>
          <a href={paths.help} target="_blank" rel="noopener">
            {t('nav.help')}
          </a>
        </p>
      </section>
    </div>
  );
}
