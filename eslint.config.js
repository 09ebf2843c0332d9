// Lint: TypeScript, React hooks, accessibility of JSX, and the import rules that keep the house
// in order (client/ never imports worker/; no import cycles).
import importX, { createNodeResolver } from 'eslint-plugin-import-x'
import jsxA11y from 'eslint-plugin-jsx-a11y'
import reactHooks from 'eslint-plugin-react-hooks'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      '.wrangler/',
      '.tsbuild/',
      'test-results/',
      'worker/worker-configuration.d.ts',
      '**/*.d.ts',
      '**/*.d.mts',
    ],
  },
  ...tseslint.configs.recommended,
  jsxA11y.flatConfigs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createNodeResolver({ extensions: ['.ts', '.tsx', '.mjs', '.js', '.json'] }),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
      'import-x/first': 'error',
      'import-x/no-duplicates': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      '@typescript-eslint/no-namespace': ['error', { allowDeclarations: true }],
    },
  },
  {
    // React components (the test helpers' `use…` names are not hooks)
    files: ['client/**/*.{ts,tsx}', 'worker/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // Browser code ships to every visitor: nothing of the server may reach it (types aside).
    files: ['client/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/worker/**', '**/worker'],
              allowTypeImports: true,
              message:
                'client/ runs in the browser: pass server data as props, or move it down into client/.',
            },
            {
              group: ['cloudflare:*'],
              message: 'client/ runs in the browser: no Workers modules.',
            },
          ],
        },
      ],
    },
  },
)
