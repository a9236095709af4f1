import '@testing-library/jest-dom/vitest';
import { configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// findBy… and waitFor give up after 1 s by default; on a busy two-core
// machine (CI runs Go and browser tests beside these) a first render can
// take longer, which made screen tests fail now and then.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  window.localStorage.clear();
  window.history.replaceState(null, '', '/');
});
