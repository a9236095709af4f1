import { useTranslation } from 'react-i18next';

/** Water running along a channel while a calculation is under way (a 10 s loop). */
export function CalculatingOverlay() {
  const { t } = useTranslation();
  return (
    <div className="calculating" role="status" aria-live="polite">
      <svg className="calculating__channel" viewBox="0 0 240 60" width="240" height="60" aria-hidden="true">
        <path className="calculating__body" d="M10,10 L10,50 L230,50 L230,10 L218,10 L218,40 L22,40 L22,10 Z" />
        <g className="calculating__wave">
          <path d="M-196,30 q12,-6 24,0 t24,0 t24,0 t24,0 t24,0 t24,0 t24,0 t24,0 t24,0 t24,0 t24,0 t24,0 t24,0 t24,0 t24,0 t24,0 t24,0 V40 H-196 Z" />
        </g>
        <rect className="calculating__grating" x="20" y="6" width="200" height="4" />
      </svg>
      <p>{t('column.calculating')}</p>
    </div>
  );
}
