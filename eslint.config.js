// @ts-check
/**
 * ESLint (flat config): typescript-eslint's type-checked rules, React's hooks rules and
 * jsx-a11y over every TypeScript and JavaScript file (but env.d.ts, which `wrangler types`
 * writes, and the pure layer's platform declarations), no raw read of a configuration variable
 * outside worker/config.ts, and the imports each layer may not make (LAYER_IMPORTS). `npm run lint`
 * runs it with `--max-warnings 0`, and `npm test` runs it before any test.
 */
import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/**
 * The bindings of the worker (wrangler.toml, env.variables.d.ts): read from `env` directly. Every
 * other upper-case name on `env` is a configuration variable, read through worker/config.ts.
 */
const BINDINGS = ["ASSETS", "DB", "DANMAKU", "DANMAKU_LIMIT", "DANMAKU_SHARD", "PLAYS", "WATCH", "EMAIL", "MEDIA", "TEST_[A-Z0-9_]+"];
const VARIABLE = `/^(?!(?:${BINDINGS.join("|")})$)[A-Z][A-Z0-9_]*$/`;
const RAW_VARIABLE_MESSAGE = "A configuration variable is read through worker/config.ts — `configOf(env).NAME`, validated once — never raw from `env`.";
/** `env.NAME`, `env["NAME"]`, `c.env.NAME`, `this.env.NAME` and `const { NAME } = env` (not `process.env`, not `import.meta.env`). */
const RAW_VARIABLE_READS = [
  `MemberExpression[object.type='Identifier'][object.name='env'][property.name=${VARIABLE}]`,
  `MemberExpression[object.type='Identifier'][object.name='env'][property.value=${VARIABLE}]`,
  `MemberExpression[object.type='MemberExpression'][object.property.name='env']:not([object.object.name='process']):not([object.object.type='MetaProperty'])[property.name=${VARIABLE}]`,
  `MemberExpression[object.type='MemberExpression'][object.property.name='env']:not([object.object.name='process']):not([object.object.type='MetaProperty'])[property.value=${VARIABLE}]`,
  `VariableDeclarator[init.name='env'] > ObjectPattern > Property[key.name=${VARIABLE}]`,
  `VariableDeclarator[init.property.name='env']:not([init.object.name='process']) > ObjectPattern > Property[key.name=${VARIABLE}]`,
].map((selector) => ({ selector, message: RAW_VARIABLE_MESSAGE }));

/**
 * The layers (docs/ARCHITECTURE.md "Layers", docs/decisions/0016-layers.md) and the imports each
 * may not make. Every import of the project is relative, so a pattern names the folder a
 * specifier reaches into: `(^|/)worker/` is worker/ from anywhere.
 */
const UI = ["shared/pages/**", "shared/components/**", "shared/player/**", "shared/routes/**", "shared/router/**", "shared/*.tsx", "shared/loaders.ts"];
/**
 * A relative import of one of these folders or files.
 * @param {string[]} names
 * @param {string} message
 */
const into = (names, message) => ({ regex: `^\\.\\.?/(?:.*/)?(?:${names.join("|")})(?:/|$)`, message });
const NOT_SCRIPTS = into(["scripts"], "scripts/ is for the command line: nothing the site runs imports it.");
/** @type {import("eslint").Linter.Config[]} */
const LAYER_IMPORTS = [
  {
    // Pure shared: rules and data shapes that any runtime can run — no UI, no browser, no bindings, no I/O.
    files: ["shared/**/*.{ts,tsx}"],
    ignores: UI,
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            ...["react", "react-dom", "react-dom/client", "react-dom/server", "hls.js", "hls.js/light"].map((name) => ({
              name,
              message: "Pure shared code renders nothing and plays nothing: this belongs in the UI folders (shared/pages, components, player).",
            })),
          ],
          patterns: [
            into(
              ["pages", "components", "player", "Document", "routes", "router", "loaders"],
              "Pure shared code does not import the UI (pages, components, player, the route table, the router).",
            ),
            into(["client", "worker"], "Pure shared code imports neither the browser's nor the worker's code."),
            NOT_SCRIPTS,
          ],
        },
      ],
    },
  },
  {
    // The UI (rendered by the worker, hydrated by the browser): the browser's and the worker's own code stay out.
    files: UI,
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [into(["client", "worker"], "The UI is rendered by both the worker and the browser: it imports neither's own code."), NOT_SCRIPTS] },
      ],
    },
  },
  {
    files: ["client/**/*.{ts,tsx}"],
    rules: { "no-restricted-imports": ["error", { patterns: [into(["worker"], "The browser's code does not import the worker's."), NOT_SCRIPTS] }] },
  },
  {
    files: ["worker/**/*.{ts,tsx}"],
    rules: { "no-restricted-imports": ["error", { patterns: [into(["client"], "The worker does not import the browser's code."), NOT_SCRIPTS] }] },
  },
];

export default tseslint.config(
  {
    ignores: [
      "dist/",
      ".wrangler/",
      ".media-cache/",
      "test-output/",
      "bench-results/",
      "coverage/",
      "shared/search/generated/",
      "env.d.ts",
      "shared/web-platform.d.ts",
    ],
  },
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
      // A loader ends a request by throwing what the router's API returns (shared/router/responses.ts):
      // `redirect()` (a Response) and `data()` (DataWithResponseInit); anything else thrown must be an Error.
      "@typescript-eslint/only-throw-error": [
        "error",
        {
          allow: [
            { from: "lib", name: "Response" },
            { from: "package", package: "@cloudflare/workers-types", name: "Response" },
            { from: "file", name: "DataWithResponseInit", path: "shared/router/responses.ts" },
            { from: "file", name: "ErrorResponse", path: "shared/router/responses.ts" },
          ],
        },
      ],
    },
  },
  {
    // Configuration is read once: the worker's code (and what it shares with the client) asks
    // worker/config.ts; the tests may set variables on the bindings they pass.
    files: ["worker/**", "shared/**", "client/**"],
    ignores: ["worker/config.ts"],
    rules: { "no-restricted-syntax": ["error", ...RAW_VARIABLE_READS] },
  },
  ...LAYER_IMPORTS,
);
