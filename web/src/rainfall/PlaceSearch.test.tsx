import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it, vi } from 'vitest';
import { createI18n } from '../i18n/i18n';
import type { PlaceHit } from './gazetteer';
import { PlaceSearch } from './PlaceSearch';

const i18n = createI18n('en');

function setup() {
  const onChoose = vi.fn<(hit: PlaceHit) => void>();
  render(
    <I18nextProvider i18n={i18n}>
      <PlaceSearch onChoose={onChoose} />
    </I18nextProvider>,
  );
  return { onChoose, input: screen.getByRole('combobox', { name: 'Find a place' }) };
}

describe('PlaceSearch', () => {
  it('chooses the first suggestion on Enter', async () => {
    const { onChoose, input } = setup();
    await userEvent.type(input, 'S1{Enter}');
    expect(onChoose).toHaveBeenCalledTimes(1);
    expect(onChoose.mock.calls[0]![0]).toMatchObject({ kind: 'district', name: 'S1', near: 'Sheffield' });
    expect(input).toHaveValue('S1');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
  });

  it('moves through the suggestions with the arrow keys, wrapping round', async () => {
    const { onChoose, input } = setup();
    await userEvent.type(input, 'newport');
    const options = screen.getAllByRole('option');
    expect(options.length).toBeGreaterThan(2);
    await userEvent.keyboard('{ArrowDown}{ArrowDown}');
    expect(options[1]).toHaveAttribute('aria-selected', 'true');
    expect(input).toHaveAttribute('aria-activedescendant', options[1]!.id);
    await userEvent.keyboard('{ArrowUp}{ArrowUp}');
    expect(screen.getAllByRole('option').at(-1)).toHaveAttribute('aria-selected', 'true');
    await userEvent.keyboard('{Enter}');
    expect(onChoose).toHaveBeenCalledTimes(1);
    expect(onChoose.mock.calls[0]![0].name).toMatch(/^Newport/);
  });

  it('closes the list on Escape without choosing', async () => {
    const { onChoose, input } = setup();
    await userEvent.type(input, 'leeds');
    expect(screen.getByRole('listbox')).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(onChoose).not.toHaveBeenCalled();
  });

  it('says when nothing matches, and why for a Northern Ireland postcode', async () => {
    const { onChoose, input } = setup();
    await userEvent.type(input, 'qqqzzz');
    expect(screen.getByText('No town or postcode district found')).toBeInTheDocument();
    await userEvent.clear(input);
    await userEvent.type(input, 'BT7{Enter}');
    expect(screen.getByText(/Northern Ireland postcodes are not in the offline map/)).toBeInTheDocument();
    expect(onChoose).not.toHaveBeenCalled();
  });
});
