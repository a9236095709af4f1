// ESLint for the web client. `npm run lint` runs it; `make lint` (and so
// `make test`) runs that. Why typescript-eslint can run beside TypeScript 7:
// see "Linting the client" in docs/decisions.md.
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import { defineConfig, globalIgnores } from "eslint/config";
import globals from "globals";
import tseslint from "typescript-eslint";

export default defineConfig([
  globalIgnores(["dist/", "e2e/screenshots/"]),

  // Client and its tests: type-aware rules, since most bugs worth a linter here
  // are promises dropped in event handlers and effects.
  {
    files: ["src/**/*.{ts,tsx}", "vite.config.ts", "vitest.setup.ts"],
    extends: [
      js.configs.recommended,
      tseslint.configs.recommendedTypeChecked,
    ],
    languageOptions: {
      globals: globals.browser,
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { "react-hooks": reactHooks },
    rules: {
      // The two classic hook rules; the React Compiler rules of the plugin's
      // recommended set are left out, as the client does not use the compiler.
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
      // The linter's checker is TypeScript 6, the build's is 7: where they
      // disagree, deleting an assertion this rule calls unnecessary breaks the build.
      "@typescript-eslint/no-unnecessary-type-assertion": "off",
      // The TypeScript convention: a leading underscore marks a name kept on
      // purpose, and destructuring a field out is how a copy drops it.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
    },
  },

  // Tests: fakes implement async interfaces with async functions that need no
  // await, and vitest types its asymmetric matchers (expect.objectContaining) as any.
  {
    files: ["src/**/*.test.{ts,tsx}", "src/test/**", "vitest.setup.ts"],
    rules: {
      "@typescript-eslint/require-await": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
    },
  },

  // Node scripts (end-to-end runner, this file): plain JavaScript rules. The
  // end-to-end tests also pass functions to page.evaluate, which run in the page.
  {
    files: ["**/*.{js,mjs}"],
    extends: [js.configs.recommended],
    languageOptions: { globals: globals.node },
  },
  {
    files: ["e2e/tests/**", "scripts/record-help-videos.mjs"],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
  },
]);
