import { fileURLToPath } from 'node:url'
import { buildSync } from 'esbuild'

/**
 * The divergence page's script (src/view/browser/, TypeScript for the browser) bundled into one classic script,
 * as the text src/view/page-script.ts inlines into every page. Both builds of REA define it: tsup for the package
 * (tsup.config.ts) and Vite for REA's tests, which run the sources (vitest.config.ts); the package itself never
 * builds anything at run time.
 */
function bundlePageScript(): string {
  const result = buildSync({
    entryPoints: [fileURLToPath(new URL('src/view/browser/main.ts', import.meta.url))],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    write: false,
    legalComments: 'none',
    charset: 'utf8',
  })
  const [output] = result.outputFiles
  if (output === undefined) {
    throw new Error('esbuild wrote no page script')
  }
  return output.text
}

/** The page script as a define: src/view/page-script.ts reads it under this name, as a string literal. */
export function pageScriptDefine(): Record<string, string> {
  return { __REA_PAGE_SCRIPT__: JSON.stringify(bundlePageScript()) }
}
