import { useId, useMemo, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import gazetteer from 'virtual:uk-gazetteer';
import { searchPlaces, type PlaceHit } from './gazetteer';

interface PlaceSearchProps {
  onChoose: (hit: PlaceHit) => void;
}

/**
 * The map's place search (a combobox): type a town or a postcode district,
 * move through the suggestions with the arrow keys, Enter chooses the
 * highlighted one (the first when none is), Escape closes the list.
 */
export function PlaceSearch({ onChoose }: PlaceSearchProps) {
  const { t } = useTranslation();
  const id = useId();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const answer = useMemo(() => searchPlaces(gazetteer, text), [text]);
  const hits = answer.hits;
  const showList = open && text.trim() !== '';

  const choose = (hit: PlaceHit | undefined) => {
    if (!hit) return;
    setText(hit.name);
    setOpen(false);
    setActive(-1);
    onChoose(hit);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setOpen(true);
      setActive((current) => (hits.length ? (current + 1) % hits.length : -1));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
      setActive((current) => (hits.length ? (current <= 0 ? hits.length - 1 : current - 1) : -1));
    } else if (event.key === 'Enter') {
      // Enter must not submit or close the dialog.
      event.preventDefault();
      if (showList) choose(hits[active >= 0 ? active : 0]);
    } else if (event.key === 'Escape' && showList) {
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
    }
  };

  const describe = (hit: PlaceHit) =>
    hit.kind === 'district' ? t('rainfall.searchDistrict', { town: hit.near }) : hit.district ? `${hit.country} · ${hit.district}` : hit.country;

  return (
    <div className="rainfall-search">
      <label htmlFor={`${id}-input`}>{t('rainfall.search')}</label>
      <input
        id={`${id}-input`}
        type="search"
        role="combobox"
        autoComplete="off"
        spellCheck={false}
        placeholder={t('rainfall.searchPlaceholder')}
        aria-expanded={showList}
        aria-controls={`${id}-list`}
        aria-autocomplete="list"
        aria-activedescendant={showList && active >= 0 ? `${id}-option-${active}` : undefined}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setOpen(false)}
      />
      {showList && (
        <ul id={`${id}-list`} role="listbox" aria-label={t('rainfall.searchResults')} className="rainfall-search__list">
          {hits.map((hit, index) => (
            <li
              key={`${hit.kind}-${hit.name}-${hit.lat}-${hit.lng}`}
              id={`${id}-option-${index}`}
              role="option"
              aria-selected={index === active}
              className={index === active ? 'rainfall-search__option rainfall-search__option--active' : 'rainfall-search__option'}
              // Before the input's blur closes the list.
              onMouseDown={(event) => {
                event.preventDefault();
                choose(hit);
              }}
            >
              <span className="rainfall-search__name">{hit.name}</span> <span className="rainfall-search__detail">{describe(hit)}</span>
            </li>
          ))}
          {hits.length === 0 && (
            <li role="option" aria-selected={false} aria-disabled="true" className="rainfall-search__empty">
              {answer.northernIrelandPostcode ? t('rainfall.searchNoNorthernIreland') : t('rainfall.searchNone')}
            </li>
          )}
        </ul>
      )}
    </div>
  );
}
