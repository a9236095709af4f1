import './catchment.css';
import { useTranslation } from 'react-i18next';
import { useNumberFormat } from '../results/format';
import { SIDES, areaOf, sameRef, totalArea, totalRunoffArea, type AreaRef, type Catchment } from './areas';
import { useAreaName } from './names';

interface AreasTableProps {
  catchment: Catchment;
  /** With a selection, each row has a radio to select its area (the editor). */
  selected?: AreaRef | null;
  onSelect?: (ref: AreaRef) => void;
  caption?: string;
}

/** The irregular catchment's areas (spec section 2): length, start and end depth, surface area and permeability, both sides. */
export function AreasTable({ catchment, selected, onSelect, caption }: AreasTableProps) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const areaName = useAreaName();
  return (
    <div className="catchment-table-wrap">
      <table className="catchment-table">
        <caption>{caption ?? t('catchment.tableCaption')}</caption>
        <thead>
          <tr>
            {onSelect && <th scope="col" className="visually-hidden">{t('catchment.select')}</th>}
            <th scope="col">{t('catchment.area')}</th>
            <th scope="col" className="numeric">{t('catchment.from')}</th>
            <th scope="col" className="numeric">{t('catchment.lengthCol')}</th>
            <th scope="col" className="numeric">{t('catchment.startDepth')}</th>
            <th scope="col" className="numeric">{t('catchment.endDepth')}</th>
            <th scope="col" className="numeric">{t('catchment.areaCol')}</th>
            <th scope="col" className="numeric">{t('spec.permeability')}</th>
          </tr>
        </thead>
        <tbody>
          {SIDES.flatMap((side) =>
            catchment[side].map((area, index) => {
              const ref = { side, index };
              const name = areaName(ref);
              const isSelected = sameRef(selected, ref);
              return (
                <tr key={`${side}-${index}`} className={isSelected ? 'catchment-table__row--selected' : undefined} data-area={`${side}-${index + 1}`}>
                  {onSelect && (
                    <td>
                      <input type="radio" name="catchment-area" aria-label={t('catchment.selectArea', { name })} checked={isSelected} onChange={() => onSelect(ref)} />
                    </td>
                  )}
                  <th scope="row">{name}</th>
                  <td className="numeric">{format(area.xOrigin, 2)}</td>
                  <td className="numeric" data-field="length">{format(area.length_m, 2)}</td>
                  <td className="numeric" data-field="start">{format(area.start_width_m, 2)}</td>
                  <td className="numeric" data-field="end">{format(area.end_width_m, 2)}</td>
                  <td className="numeric" data-field="area">{format(areaOf(area), 2)}</td>
                  <td className="numeric" data-field="permeability">
                    {t(`surface.${area.permeability}`)} ({format(area.permeability_value, 2)})
                  </td>
                </tr>
              );
            }),
          )}
        </tbody>
        <tfoot>
          <tr>
            <td colSpan={onSelect ? 8 : 7}>{t('catchment.total', { area: format(totalArea(catchment), 2), runoff: format(totalRunoffArea(catchment), 2) })}</td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
