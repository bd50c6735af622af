// @ts-check
import js from '@eslint/js'
import tseslint from 'typescript-eslint'

/** Front ends reach the core only through src/index.ts; `depth` is how far the file sits below src/. */
const onlyThroughIndex = (depth) => {
  const up = '../'.repeat(depth)
  return {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: [`${up}*`, `!${up}index.js`],
            message: 'Front ends import the core only through src/index.ts.',
          },
        ],
      },
    ],
  }
}

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'coverage/**',
      '.scratch/**',
      'rea-report/**',
      'examples/*/node_modules/**',
      'test/fixtures/projects/**',
      // Type-checked against the built package, which a fresh clone does not have yet; Jest runs it in CI.
      'examples/jest/*.ts',
    ],
  },
  js.configs.recommended,
  {
    files: ['**/*.ts'],
    extends: [...tseslint.configs.strictTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      curly: ['error', 'all'],
      '@typescript-eslint/no-confusing-void-expression': 'off',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  { files: ['src/cli/*.ts', 'src/mcp/*.ts'], rules: onlyThroughIndex(1) },
  { files: ['src/cli/commands/*.ts', 'src/mcp/tools/*.ts'], rules: onlyThroughIndex(2) },
  {
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        performance: 'readonly',
        fetch: 'readonly',
        URL: 'readonly',
      },
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { __dirname: 'readonly', require: 'readonly', module: 'writable' },
    },
  },
)
