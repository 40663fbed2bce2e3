// One lint setup for the whole tree. Type-aware rules catch floating promises (a lost write in an
// offline-first app is a lost patient detail); import boundaries keep apps from reaching into each other.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const appBoundary = (self) => ({
  'no-restricted-imports': [
    'error',
    {
      patterns: [
        {
          group: ['**/apps/*/**', '@inbound/server', '@inbound/crew', '@inbound/hospital'].filter(
            (p) => !p.includes(self),
          ),
          message: 'Apps never import each other: share through @inbound/contract.',
        },
      ],
    },
  ],
});

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/dist-desktop/**',
      '**/data/**',
      'test-results/**',
      'playwright-report/**',
      'e2e/.artifacts/**',
      'bench/results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['vitest.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-console': ['error', { allow: ['warn', 'error', 'info'] }],
    },
  },
  {
    files: ['apps/crew/**/*.{ts,tsx}', 'apps/hospital/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // Real-time payloads are parsed with the contract (`parseChannelMessage`), never cast: a cast hides
    // a server that sends something else until a medic sees a wrong screen.
    files: ['**/*.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "TSAsExpression[expression.type='MemberExpression'][expression.property.name=/^(data|event)$/][expression.object.name=/^(event|message|frame|notice|msg)$/]",
          message:
            'Do not cast a real-time payload: parse it with parseChannelMessage (or the schema of its channel kind) from @inbound/contract.',
        },
        {
          selector:
            'TSAsExpression[typeAnnotation.typeName.name=/^(ServerFrame|RealtimeEvent|ChannelMessage|CaseChannelMessage|HospitalChannelMessage|CaseUpdated|HospitalCaseUpdated|HospitalCaseCard|MediaConverted|ChatReceipt)$/]',
          message:
            'Do not cast to a real-time message type: parse it with its schema from @inbound/contract (ServerFrame, parseChannelMessage).',
        },
      ],
    },
  },
  { files: ['apps/crew/**'], rules: appBoundary('crew') },
  { files: ['apps/hospital/**'], rules: appBoundary('hospital') },
  { files: ['apps/server/**'], rules: appBoundary('server') },
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
);
