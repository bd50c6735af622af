// @ts-check
import { readFileSync } from 'node:fs'
import js from '@eslint/js'
import tseslint from 'typescript-eslint'

/**
 * What the front ends' surface, `src/front-end.ts`, re-exports, read from its `export … from` lines: module
 * (relative to src/) → the names it gives out.
 */
function surfaceExports() {
  const exports = new Map()
  const text = readFileSync(new URL('src/front-end.ts', import.meta.url), 'utf8')
  for (const match of text.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'\.\/([^']+)'/g)) {
    const names = match[1]
      .split(',')
      .map(
        (name) =>
          name
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)[0],
      )
      .filter((name) => name !== '')
    exports.set(match[2], [...(exports.get(match[2]) ?? []), ...names])
  }
  return exports
}
const SURFACE_EXPORTS = surfaceExports()

/**
 * The matchers and the reporters reach the core only through `src/front-end.ts`. `up` climbs from the file to the
 * repository root, and `prefix` leads from there to the surface.
 */
const onlyThroughSurface = (up, prefix = '') => ({
  'no-restricted-imports': [
    'error',
    {
      patterns: [
        {
          group: [`${up}${prefix}*`, `!${up}${prefix}front-end.js`],
          message: 'Front ends import the core only through src/front-end.ts (docs/architecture.md).',
        },
      ],
    },
  ],
})

/**
 * The CLI and the MCP server (which the CLI's bundles hold) may use the names `src/front-end.ts` gives out, each
 * imported from the module that defines it, never through the surface: the CLI is bundled, its modules are
 * evaluated on first import, and importing the surface evaluates every module it re-exports, so a command that
 * named it would build every schema before it ran. Naming the defining modules, `rea capture-process` evaluates
 * only the capture.
 */
const onlySurfaceNames = (up) => {
  const escape = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
  const permitted = [...SURFACE_EXPORTS.keys()].map(escape).join('|')
  return {
    'no-restricted-imports': [
      'error',
      {
        paths: [...SURFACE_EXPORTS].map(([module, names]) => ({
          name: `${up}${module}`,
          allowImportNames: [...new Set(names)],
          message:
            'The CLI and the MCP server import only the names src/front-end.ts re-exports from this module.',
        })),
        patterns: [
          {
            regex: `^${escape(up)}(?!(?:${permitted})$)`,
            message:
              'The CLI and the MCP server import a name src/front-end.ts re-exports, from the module that defines it (docs/architecture.md).',
          },
        ],
      },
    ],
  }
}

/**
 * The engine's layers, lowest first (docs/architecture.md): a module imports only from its own layer or the
 * layers below it. Peers within a layer never import each other in a circle.
 */
const LAYERS = [
  ['internal', 'errors', 'version'],
  ['scenario'],
  ['normalize'],
  ['screen'],
  ['evidence'],
  ['process'],
  ['filesystem', 'coverage'],
  ['terminal'],
  ['capture'],
  ['compare'],
  ['export'],
  ['view'],
  ['authority', 'report', 'record', 'review', 'markdown', 'capabilities', 'json-schemas', 'bench-internals'],
  ['runner'],
  ['index', 'front-end'],
]

/** Lint blocks per layer: its files may not import any module of a higher layer. */
const layerRules = LAYERS.flatMap((layer, level) => {
  const above = LAYERS.slice(level + 1).flat()
  if (above.length === 0) {
    return []
  }
  const rule = (groups) => ({
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: groups,
            message: 'A module imports only from its own layer or below (docs/architecture.md).',
          },
        ],
      },
    ],
  })
  return [
    // Files directly in src/ name their neighbours with `./`; files in folders climb out with `../`.
    {
      files: layer.map((name) => `src/${name}.ts`),
      rules: rule(above.flatMap((name) => [`./${name}.js`, `./${name}/**`])),
    },
    {
      files: layer.map((name) => `src/${name}/**/*.ts`),
      rules: rule(
        above.flatMap((name) => [`../${name}.js`, `../${name}/**`, `../../${name}.js`, `../../${name}/**`]),
      ),
    },
  ]
})

/**
 * The PTY host: what starts, watches and ends programs. The folders that read what a capture recorded (Evidence,
 * screens, authority files, reports) never import it, whatever their layer: they run where no program runs.
 */
const HOST_FOLDERS = ['terminal', 'capture', 'process', 'filesystem']
const HOST_FREE_FOLDERS = ['compare', 'export', 'view', 'authority', 'report', 'review']
const hostFreeRules = {
  files: HOST_FREE_FOLDERS.map((name) => `src/${name}/**/*.ts`),
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: HOST_FOLDERS.flatMap((name) => [
              `../${name}/**`,
              `../../${name}/**`,
              `../../../${name}/**`,
            ]),
            message:
              'Comparison, export, views, authorities and reports read Evidence and screens (src/screen/), never the PTY host (docs/architecture.md).',
          },
        ],
      },
    ],
  },
}

/** Every rule that keeps the structure: the layers, the host boundary and the front ends' one surface. */
export const STRUCTURE_RULES = [
  ...layerRules,
  hostFreeRules,
  { files: ['src/cli/*.ts', 'src/mcp/*.ts'], rules: onlySurfaceNames('../') },
  { files: ['src/cli/commands/*.ts', 'src/mcp/tools/*.ts'], rules: onlySurfaceNames('../../') },
  { files: ['matchers/*.ts', 'reporter/**/*.ts'], rules: onlyThroughSurface('../', 'src/') },
  // Each runner's glue sits a folder deeper (matchers/vitest/, matchers/jest/).
  { files: ['matchers/*/*.ts'], rules: onlyThroughSurface('../../', 'src/') },
]

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
  // A function longer than a screenful does more than one thing; the engine and its front ends are split into named
  // steps instead (tests are exempt: a table of cases may run long).
  {
    files: ['src/**/*.ts', 'matchers/**/*.ts', 'reporter/**/*.ts'],
    rules: {
      'max-lines-per-function': ['error', { max: 100, skipBlankLines: true, skipComments: true }],
    },
  },
  ...STRUCTURE_RULES,
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
