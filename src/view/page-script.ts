/**
 * The page's script: src/view/browser/ bundled at build time into one classic script (tsup.page-script.ts), here as
 * the text render-page.ts inlines after xterm.js. The build defines the name as a string literal; so does
 * vitest.config.ts for REA's tests, which run the sources. Read only when a page is drawn: a project that runs
 * REA from its TypeScript sources under its own Vitest config has no such definition, and its captures must
 * still load.
 */
declare const __REA_PAGE_SCRIPT__: string | undefined

export function pageScript(): string {
  if (typeof __REA_PAGE_SCRIPT__ !== 'string') {
    throw new Error(
      "the divergence page's script is made by REA's build: run REA from its built package (npm run build), or define __REA_PAGE_SCRIPT__ as vitest.config.ts does",
    )
  }
  return __REA_PAGE_SCRIPT__
}
