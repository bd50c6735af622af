/**
 * `rea-capture/vitest-markdown`: a Vite plugin that makes a Markdown file a Vitest test file, one test per console
 * block (docs/markdown-cases.md). Name the files in `test.include`; nothing else is needed.
 *
 * @example
 * // vitest.config.ts
 * import { reaMarkdown } from 'rea-capture/vitest-markdown'
 * export default defineConfig({ plugins: [reaMarkdown()], test: { include: ['**\/*.test.ts', 'docs/**\/*.md'] } })
 */

/** The plugin as Vite sees it (structurally a Vite `Plugin`, without a dependency on Vite's types). */
export interface ReaMarkdownPlugin {
  readonly name: string
  readonly enforce: 'pre'
  transform(code: string, id: string): { code: string; map: null } | null
}

export interface ReaMarkdownOptions {
  /** Which modules are Markdown cases; by default every `.md` file Vitest loads as a test file. */
  readonly include?: RegExp
}

export function reaMarkdown(options: ReaMarkdownOptions = {}): ReaMarkdownPlugin {
  const include = options.include ?? /\.md$/
  return {
    name: 'rea-capture:markdown',
    enforce: 'pre',
    transform(code, id) {
      // Vite may add a query (`?import`); the file is the part before it.
      const file = id.replace(/[?#].*$/, '')
      if (!include.test(file)) {
        return null
      }
      return {
        code: `import { defineMarkdownTests } from 'rea-capture/vitest'\ndefineMarkdownTests(${JSON.stringify(file)}, ${JSON.stringify(code)})\n`,
        map: null,
      }
    },
  }
}
