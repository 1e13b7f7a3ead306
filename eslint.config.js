// @ts-check
/**
 * ESLint (flat config): typescript-eslint's type-checked rules, React's hooks rules and
 * jsx-a11y over every TypeScript and JavaScript file. `npm run lint` runs it with
 * `--max-warnings 0`, and `npm test` runs it before any test.
 */
import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", ".wrangler/", ".media-cache/", "test-output/", "bench-results/", "coverage/", "shared/search/generated/"] },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  reactHooks.configs.flat.recommended,
  jsxA11y.flatConfigs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.browser, ...globals.node },
    },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // React Router's loaders end a request by throwing what its own API returns: `redirect()`
      // (a Response) and `data()` (DataWithResponseInit); anything else thrown must be an Error.
      "@typescript-eslint/only-throw-error": [
        "error",
        {
          allow: [
            { from: "lib", name: "Response" },
            { from: "package", package: "@cloudflare/workers-types", name: "Response" },
            { from: "package", package: "react-router", name: "DataWithResponseInit" },
          ],
        },
      ],
    },
  },
);
