import { useTranslation } from 'react-i18next';
import { materialText } from '../design/catalogueText';
import { MATERIAL_LISTS, type MaterialLine, type Results } from '../design/types';
import { useNumberFormat } from './format';

const LIST_TITLE = {
  channel: 'materials.channel',
  connectors: 'materials.connectors',
  endcaps: 'materials.endcaps',
  access_cover: 'materials.accessCover',
  box: 'materials.box',
} as const;

/** The run's materials list, list by list, in the calculation's sort order. */
export function MaterialsTable({ results }: { results: Results }) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const lists = MATERIAL_LISTS.map((list) => ({ list, lines: [...((results[list] as MaterialLine[] | undefined) ?? [])].sort((a, b) => a.sort - b.sort) })).filter(
    ({ lines }) => lines.length > 0,
  );
  if (lists.length === 0) return <p className="muted">{t('materials.empty')}</p>;
  return (
    <table className="materials-table">
      <thead>
        <tr>
          <th scope="col">{t('materials.han')}</th>
          <th scope="col">{t('materials.description')}</th>
          <th scope="col" className="numeric">
            {t('materials.length')}
          </th>
          <th scope="col" className="numeric">
            {t('materials.count')}
          </th>
        </tr>
      </thead>
      {lists.map(({ list, lines }) => (
        <tbody key={list}>
          <tr className="materials-table__group">
            <th scope="rowgroup" colSpan={4}>
              {t(LIST_TITLE[list])}
            </th>
          </tr>
          {lines.map((line) => (
            <tr key={`${line.sort}-${line.HAN}`}>
              <td className="materials-table__han">{line.HAN || '–'}</td>
              <td>{materialText(t, line)}</td>
              <td className="numeric">{line.length_mm ? `${format(line.length_mm, 0)} mm` : ''}</td>
              <td className="numeric">{format(line.count, 0)}</td>
            </tr>
          ))}
        </tbody>
      ))}
    </table>
  );
}
