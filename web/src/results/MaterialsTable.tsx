import { useTranslation } from 'react-i18next';
import { materialText } from '../design/catalogueText';
import type { MaterialLine, MaterialList } from '../design/types';
import { useNumberFormat } from './format';

const LIST_TITLE = {
  channel: 'materials.channel',
  connectors: 'materials.connectors',
  endcaps: 'materials.endcaps',
  access_cover: 'materials.accessCover',
  box: 'materials.box',
} as const;

/** Material lines in groups: a run's lists under their titles, or one untitled group (a project total). */
export function MaterialsTable({ lists, caption }: { lists: { list: MaterialList | null; lines: MaterialLine[] }[]; caption: string }) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  if (lists.length === 0) return <p className="muted">{t('materials.empty')}</p>;
  return (
    <table className="materials-table">
      <caption className="visually-hidden">{caption}</caption>
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
        <tbody key={list ?? 'all'}>
          {list && (
            <tr className="materials-table__group">
              <th scope="rowgroup" colSpan={4}>
                {t(LIST_TITLE[list])}
              </th>
            </tr>
          )}
          {lines.map((line, i) => (
            <tr key={`${line.sort}-${line.HAN}-${i}`}>
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
