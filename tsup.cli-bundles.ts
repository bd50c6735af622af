import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildSync, type Plugin } from 'esbuild'

/**
 * The CLI is two CommonJS bundles beside its entry (dist/cli/main.cjs), with one copy of the engine between them:
 *
 * - run.cjs: the dispatcher (src/cli/run.ts), `rea capture-process` and everything it runs;
 * - commands.cjs: every other command (src/cli/more-commands.ts), with what they use that run.cjs does not hold.
 *   Each module of run.cjs that they import, they take from run.cjs (`engineModule` below), so a process has one
 *   ReaError class, one zod and one supervisor, whichever command runs.
 *
 * Why two: Node 20 has no compile cache, so every `rea` process compiles the bundle it loads, whole. A capture, the
 * command that runs most and whose start-up is measured, compiled the comparison, the page builder, the recorder
 * and the MCP server with it.
 *
 * zod is shared by name, not as a module: handing over a module hands over all its exports, and zod's namespace
 * would pull its whole API (locales, code generation) into run.cjs. run.cjs imports the names commands.cjs uses
 * instead, which keeps both bundles tree-shaken.
 */

const ROOT = path.dirname(fileURLToPath(import.meta.url))
const RUN_ENTRY = path.join(ROOT, 'src/cli/run.ts')
const MORE_COMMANDS_ENTRY = path.join(ROOT, 'src/cli/more-commands.ts')
/** The import in run.ts that leads to the other commands; in run.cjs it becomes a require of the second bundle. */
const MORE_COMMANDS_IMPORT = './more-commands.js'
/** Injected into every CommonJS build (tsup.config.ts): each bundle has its own, which is not a shared module. */
const IMPORT_META_URL_SHIM = path.join(ROOT, 'tsup.import-meta-url.ts')
const ZOD = 'zod'
const ZOD_FILES = `${path.sep}node_modules${path.sep}zod${path.sep}`

/** How the CLI's code is divided between its two bundles. */
export interface CliBundleLayout {
  /** The files run.cjs holds. */
  readonly run: ReadonlySet<string>
  /** The files of run.cjs that commands.cjs imports. */
  readonly shared: ReadonlySet<string>
  /** The zod names commands.cjs uses: its modules import zod as `import * as z from 'zod'` (checked) and use `z.<name>`. */
  readonly zodNames: readonly string[]
}

/**
 * Bundles each side here as the CLI's build bundles it (Node's platform, CommonJS, the same externals: `external`
 * and, as tsup does, the package's dependencies but those in `bundled`); only files that put code into the output
 * count (zod's locales, say, are read and dropped).
 */
export function cliBundleLayout(external: readonly string[], bundled: readonly string[]): CliBundleLayout {
  const externals = [...external, ...packageDependencies(bundled).flatMap((name) => [name, `${name}/*`])]
  const run = bundledFiles(RUN_ENTRY, [...externals, MORE_COMMANDS_IMPORT])
  const more = bundledFiles(MORE_COMMANDS_ENTRY, externals)
  // The commands' own files: those run.cjs does not hold (zod's stay out: zod is handed over by name).
  const own = [...more.files].filter((file) => !run.files.has(file) && !file.includes(ZOD_FILES))
  // A file whose code is all shaken out still has its imports resolved, so what it imports is shared too.
  const importers = [...more.imports.keys()].filter(
    (file) => !run.files.has(file) && !file.includes(ZOD_FILES),
  )
  const shared = new Set(
    importers
      .flatMap((file) => (more.imports.get(file) ?? []).filter((imported) => run.files.has(imported)))
      .filter((file) => !file.includes(ZOD_FILES) && file !== IMPORT_META_URL_SHIM),
  )
  return { run: run.files, shared, zodNames: zodNamesUsed(own) }
}

/** The package's dependencies and peer dependencies but those in `bundled`: tsup leaves them out of a bundle. */
function packageDependencies(bundled: readonly string[]): string[] {
  const packageJson = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>
    peerDependencies?: Record<string, string>
  }
  return [
    ...Object.keys(packageJson.dependencies ?? {}),
    ...Object.keys(packageJson.peerDependencies ?? {}),
  ].filter((name) => !bundled.includes(name))
}

/** zod's run-time names that `files` use as `z.<name>`; throws if one imports zod another way. */
function zodNamesUsed(files: readonly string[]): string[] {
  const exported = new Set(Object.keys(createRequire(import.meta.url)(ZOD) as object))
  const used = new Set<string>()
  for (const file of files) {
    const source = readFileSync(file, 'utf8')
    for (const match of source.matchAll(/^import (?!type )(?<what>.*) from 'zod'$/gm)) {
      if (match.groups?.['what'] !== '* as z') {
        throw new Error(
          `${file} imports zod as ${match.groups?.['what']}: the CLI's commands import * as z from 'zod'`,
        )
      }
    }
    for (const match of source.matchAll(/\bz\.(?<name>[A-Za-z_$][\w$]*)/g)) {
      used.add(match.groups?.['name'] ?? '')
    }
  }
  return [...used].filter((name) => exported.has(name)).sort()
}

function bundledFiles(
  entry: string,
  external: readonly string[],
): { files: Set<string>; imports: Map<string, string[]> } {
  const { metafile } = buildSync({
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    mainFields: ['module', 'main'],
    outdir: path.join(ROOT, 'dist/cli'),
    external: [...external],
    logLevel: 'silent',
  })
  const files = new Set<string>()
  for (const output of Object.values(metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      if (bytesInOutput > 0) {
        files.add(path.resolve(ROOT, input))
      }
    }
  }
  const imports = new Map(
    Object.entries(metafile.inputs).map(([input, { imports }]) => [
      path.resolve(ROOT, input),
      imports
        .filter((imported) => imported.external !== true)
        .map((imported) => path.resolve(ROOT, imported.path)),
    ]),
  )
  return { files, imports }
}

/** A shared module's name between the two bundles: its path in the repository, or `zod`. */
const moduleId = (file: string): string => path.relative(ROOT, file).split(path.sep).join('/')

/** The TOON encoder, ESM-only: the CLI builds it as a CommonJS bundle of its own, `dist/cli/toon.cjs`. */
export const TOON = '@toon-format/toon'
/** Its module, the entry of toon.cjs (tsup takes an entry's path, not a package name). */
export const TOON_ENTRY = createRequire(import.meta.url).resolve(TOON)

/**
 * For run.cjs and commands.cjs: the TOON encoder is required from toon.cjs, not bundled into them, so that only a
 * run that writes TOON reads and compiles its 58 KB (a capture written as JSON, such as every capture of the test
 * plugin, never does). The encoder is a third-party package with no state shared with the engine.
 */
export function toonBundlePlugin(): Plugin {
  return {
    name: 'rea-toon-bundle',
    setup(build) {
      // A module of the bundle that requires toon.cjs: an import() of it stays a require, where an import() of
      // an external file would start Node's ES module loader.
      build.onResolve({ filter: /^@toon-format\/toon$/ }, () => ({
        path: TOON,
        namespace: 'rea-toon-bundle',
      }))
      build.onResolve({ filter: /^\.\/toon\.cjs$/, namespace: 'rea-toon-bundle' }, () => ({
        path: './toon.cjs',
        external: true,
      }))
      build.onLoad({ filter: /.*/, namespace: 'rea-toon-bundle' }, () => ({
        contents: "module.exports = require('./toon.cjs')",
        loader: 'js',
      }))
    },
  }
}

/**
 * For run.cjs: the other commands are required from commands.cjs when one runs, and run.ts exports
 * `engineModule(id)`, which evaluates (on first use) and returns a shared module by its id.
 */
export function runBundlePlugin(layout: CliBundleLayout): Plugin {
  const zodImports = layout.zodNames.map((name, index) => `${name} as __zod${index}`).join(', ')
  const zodObject = layout.zodNames.map((name, index) => `${name}: __zod${index}`).join(', ')
  const cases = [...layout.shared]
    .sort()
    .map((file) => `    case ${JSON.stringify(moduleId(file))}: return require(${JSON.stringify(file)})`)
  const registry = [
    '',
    `import { ${zodImports} } from 'zod'`,
    '/** For dist/cli/commands.cjs: a module of this bundle, by its path in the repository (tsup.cli-bundles.ts). */',
    'export function engineModule(id: string): unknown {',
    '  switch (id) {',
    `    case ${JSON.stringify(ZOD)}: return { ${zodObject} }`,
    ...cases,
    '  }',
    '  throw new Error(`run.cjs shares no module ${id}`)',
    '}',
    '',
  ].join('\n')
  return {
    name: 'rea-run-bundle',
    setup(build) {
      build.onResolve({ filter: /^\.\/more-commands\.js$/ }, (args) =>
        args.importer === RUN_ENTRY ? { path: './commands.cjs', external: true } : undefined,
      )
      build.onLoad({ filter: /[\\/]src[\\/]cli[\\/]run\.ts$/ }, (args) =>
        args.path === RUN_ENTRY
          ? { contents: `${readFileSync(args.path, 'utf8')}${registry}`, loader: 'ts' }
          : undefined,
      )
    },
  }
}

/**
 * For commands.cjs: every import of a file run.cjs holds is answered by run.cjs's `engineModule`; the build fails
 * if run.cjs does not share it (the layout above would be out of date).
 */
export function commandsBundlePlugin(layout: CliBundleLayout): Plugin {
  return {
    name: 'rea-commands-bundle',
    setup(build) {
      build.onResolve({ filter: /^\.\/run\.cjs$/, namespace: 'rea-run-bundle' }, () => ({
        path: './run.cjs',
        external: true,
      }))
      build.onResolve({ filter: /^zod(\/.*)?$/ }, (args) =>
        args.path === ZOD
          ? { path: ZOD, namespace: 'rea-run-bundle' }
          : {
              errors: [
                { text: `${args.importer} imports ${args.path}: the CLI's commands import zod as 'zod'` },
              ],
            },
      )
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (
          args.kind === 'entry-point' ||
          (args.pluginData as { reaResolving?: boolean } | undefined)?.reaResolving
        ) {
          return undefined
        }
        const resolved = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: { reaResolving: true },
        })
        if (resolved.errors.length > 0 || resolved.external || !layout.run.has(resolved.path)) {
          return undefined
        }
        return layout.shared.has(resolved.path)
          ? { path: resolved.path, namespace: 'rea-run-bundle' }
          : {
              errors: [
                { text: `${args.importer} imports ${resolved.path}, which run.cjs holds but does not share` },
              ],
            }
      })
      build.onLoad({ filter: /.*/, namespace: 'rea-run-bundle' }, (args) => ({
        contents: `module.exports = require('./run.cjs').engineModule(${JSON.stringify(
          args.path === ZOD ? ZOD : moduleId(args.path),
        )})`,
        loader: 'js',
        resolveDir: ROOT,
      }))
    },
  }
}
