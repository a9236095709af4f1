import { describe, expect, it } from 'vitest';
import { countryOptions, flagEmoji } from './countries';

describe('countries', () => {
  it('draws flags from ISO codes, with the product’s UK as GB', () => {
    expect(flagEmoji('DE')).toBe('🇩🇪');
    expect(flagEmoji('uk')).toBe('🇬🇧');
    expect(flagEmoji('EUR')).toBe('');
  });

  it('names and sorts countries in the interface language, flag first', () => {
    const options = countryOptions(
      [
        { name: 'Germany', iso_code: 'DE' },
        { name: 'Austria', iso_code: 'AT' },
        { name: 'Nowhere', iso_code: 'RD' },
      ],
      'de',
    );
    expect(options).toEqual([
      { isoCode: 'DE', label: '🇩🇪 Deutschland' },
      { isoCode: 'RD', label: 'Nowhere' },
      { isoCode: 'AT', label: '🇦🇹 Österreich' },
    ]);
  });
});
