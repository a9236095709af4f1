import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../app/ServicesContext';
import { FieldFrame } from '../components/Field';
import type { Message } from '../forms/messages';
import { isLanguageCode, toBcp47 } from '../i18n/languages';
import { countryOptions } from './countries';

interface CountrySelectProps {
  id: string;
  label: string;
  value: string;
  onChange: (isoCode: string) => void;
  errors?: readonly Message[] | undefined;
  required?: boolean;
}

export function CountrySelect({ id, label, value, onChange, errors, required }: CountrySelectProps) {
  const { t, i18n } = useTranslation();
  const { drainage } = useServices();
  const countries = useQuery({
    queryKey: ['countries'],
    // Spec: a failed country list is only logged; the list stays empty.
    queryFn: () =>
      drainage.countries().catch((error: unknown) => {
        console.error('country list failed', error);
        return [];
      }),
    staleTime: Infinity,
  });
  const locale = isLanguageCode(i18n.language) ? toBcp47(i18n.language) : 'en';
  const options = useMemo(() => countryOptions(countries.data ?? [], locale), [countries.data, locale]);

  return (
    <FieldFrame id={id} label={label} required={required} errors={errors}>
      {(describedBy, invalid) => (
        <select
          id={id}
          name={id}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          aria-required={required || undefined}
          aria-busy={countries.isPending || undefined}
        >
          <option value="">{countries.isPending ? t('signUp.countriesLoading') : t('signUp.countryPlaceholder')}</option>
          {options.map((option) => (
            <option key={option.isoCode} value={option.isoCode}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </FieldFrame>
  );
}
