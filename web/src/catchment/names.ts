import { useTranslation } from 'react-i18next';
import type { AreaRef } from './areas';

/** An area's name: the left side is drawn above the channel (upper), the right below (lower); numbered from the head. */
export function useAreaName(): (ref: AreaRef) => string {
  const { t } = useTranslation();
  return (ref) => t(ref.side === 'left' ? 'catchment.upperArea' : 'catchment.lowerArea', { number: ref.index + 1 });
}
