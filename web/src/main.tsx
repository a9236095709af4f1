import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { App } from './App';
import { createServices } from './app/services';
import { ServicesProvider } from './app/ServicesContext';
import './styles.css';

const services = createServices();
const root = document.getElementById('app');
if (!root) throw new Error('the page has no element with id "app"');

createRoot(root).render(
  <StrictMode>
    <ServicesProvider services={services}>
      <QueryClientProvider client={services.queryClient}>
        <I18nextProvider i18n={services.i18n}>
          <App />
        </I18nextProvider>
      </QueryClientProvider>
    </ServicesProvider>
  </StrictMode>,
);
