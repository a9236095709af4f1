import { QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { App } from '../App';
import type { Services } from './services';
import { ServicesProvider } from './ServicesContext';

export function Root({ services }: { services: Services }) {
  return (
    <ServicesProvider services={services}>
      <QueryClientProvider client={services.queryClient}>
        <I18nextProvider i18n={services.i18n}>
          <App />
        </I18nextProvider>
      </QueryClientProvider>
    </ServicesProvider>
  );
}
