import './home.css';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../components/useDocumentTitle';
import { FeatureVersions } from './HomeTexts';

/** The software features page (/features, spec section 2): what the software does, its UK and international versions, the disclaimer. */
export function FeaturesScreen() {
  const { t } = useTranslation();
  useDocumentTitle(t('home.features.title'));
  return (
    <article className="text-page" aria-labelledby="features-page-title">
      <h1 id="features-page-title">{t('home.features.title')}</h1>
      <p className="text-page__lead">{t('advert.description')}</p>
      <ul className="home-texts__points">
        <li>{t('home.features.point1')}</li>
        <li>{t('home.features.point2')}</li>
        <li>{t('home.features.point3')}</li>
        <li>{t('home.features.point4')}</li>
      </ul>
      <FeatureVersions />
      <p className="home-texts__disclaimer">{t('home.features.disclaimer')}</p>
    </article>
  );
}
