// @ts-check
import { readFileSync } from 'node:fs'
import js from '@eslint/js'
import tseslint from 'typescript-eslint'

/**
 * What each named surface of the core re-exports, read from its `export … from` lines: module (relative to src/)
 * → the names it gives out. The surfaces are `src/index.ts` (the public API), `src/front-end.ts` (the helpers
 * front ends share) and, for REA's own plug-ins and reporters, `src/host.ts`.
 */
const surfaceExportsRead = new Map()
function surfaceExports(surface) {
  const known = surfaceExportsRead.get(surface)
  if (known !== undefined) {
    return known
  }
  const exports = new Map()
  surfaceExportsRead.set(surface, exports)
  const text = readFileSync(new URL(`src/${surface}`, import.meta.url), 'utf8')
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

/**
 * Front ends reach the core only through its named surfaces. `depth` is how far the file sits below the folder
 * holding `src/`'s surfaces (src/ for the CLI and MCP, the repository root for matchers/ and reporter/).
 */
const onlyThrough = (depth, surfaces, prefix = '') => {
  const up = '../'.repeat(depth)
  return {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: [`${up}${prefix}*`, ...surfaces.map((surface) => `!${up}${prefix}${surface}`)],
            message: `Front ends import the core only through ${surfaces.map((surface) => `src/${surface.replace('.js', '.ts')}`).join(' or ')}.`,
          },
        ],
      },
    ],
  }
}

/**
 * The CLI's variant of `onlyThrough`: it may use the names the surfaces give out, each imported from the module that
 * defines it, never through a surface itself. The CLI is one bundle whose modules are evaluated on first import, and
 * importing a surface evaluates every module it re-exports: a command that named `src/index.ts` would build every
 * schema before it ran. Naming the defining modules, `rea capture-process` evaluates only the capture.
 */
const onlySurfaceNames = (depth, surfaces) => {
  const up = '../'.repeat(depth)
  const allowed = new Map()
  for (const surface of surfaces) {
    for (const [module, names] of surfaceExports(surface.replace('.js', '.ts'))) {
      allowed.set(module, [...(allowed.get(module) ?? []), ...names])
    }
  }
  const escape = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
  const permitted = [...allowed.keys()].map(escape).join('|')
  const surfaceList = surfaces.map((surface) => `src/${surface.replace('.js', '.ts')}`).join(', ')
  return {
    'no-restricted-imports': [
      'error',
      {
        paths: [...allowed].map(([module, names]) => ({
          name: `${up}${module}`,
          allowImportNames: [...new Set(names)],
          message: `Only the names ${surfaceList} re-export from this module may be imported.`,
        })),
        patterns: [
          {
            regex: `^${escape(up)}(?!(?:${permitted})$)`,
            message: `The CLI imports a name ${surfaceList} re-export, from the module that defines it (not through the surface: see docs/architecture.md).`,
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
  ['evidence'],
  ['process'],
  ['filesystem'],
  ['terminal'],
  ['capture'],
  ['compare'],
  ['export'],
  ['view'],
  ['authority', 'report', 'record', 'capabilities', 'json-schemas', 'bench-internals'],
  ['index', 'host', 'front-end'],
]

/**
 * The modules behind the front ends' surface (`src/front-end.ts`), read from its re-exports: the public API may not
 * re-export them, so a helper made for the CLI or a reporter never becomes a function users depend on.
 */
const FRONT_END_MODULES = new Set([...surfaceExports('front-end.ts').keys()].map((module) => `./${module}`))

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
  ...layerRules,
  {
    files: ['src/index.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [...FRONT_END_MODULES, './front-end.js', './host.js'],
              message:
                'The public API holds only the library: helpers for the front ends are re-exported by src/front-end.ts.',
            },
          ],
        },
      ],
    },
  },
  { files: ['src/mcp/*.ts'], rules: onlyThrough(1, ['index.js', 'front-end.js']) },
  { files: ['src/mcp/tools/*.ts'], rules: onlyThrough(2, ['index.js', 'front-end.js']) },
  { files: ['src/cli/*.ts'], rules: onlySurfaceNames(1, ['index.js', 'front-end.js']) },
  // The dispatcher starts the supervisor before a capture command loads.
  { files: ['src/cli/run.ts'], rules: onlySurfaceNames(1, ['index.js', 'front-end.js', 'host.js']) },
  { files: ['src/cli/commands/*.ts'], rules: onlySurfaceNames(2, ['index.js', 'front-end.js']) },
  {
    files: ['matchers/*.ts', 'reporter/*.ts'],
    rules: onlyThrough(1, ['index.js', 'host.js', 'front-end.js'], 'src/'),
  },
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
