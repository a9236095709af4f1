import 'i18next';
import type en from '../../locales/en.json';

// Typed keys: a key missing from the English catalogue fails the build.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
    keySeparator: false;
    nsSeparator: false;
  }
}
