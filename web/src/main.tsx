import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Root } from './app/Root';
import { startErrorReporting } from './app/errorReporting';
import { createServices } from './app/services';
import './styles.css';

// Errors are reported only where the server names a tracker (SENTRY_DSN).
void startErrorReporting();
const services = createServices();
const element = document.getElementById('app');
if (!element) throw new Error('the page has no element with id "app"');

createRoot(element).render(
  <StrictMode>
    <Root services={services} />
  </StrictMode>,
);
