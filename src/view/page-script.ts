/**
 * The page's script: src/view/browser/ bundled at build time into one classic script (tsup.page-script.ts), here as
 * the text render-page.ts inlines after xterm.js. The build defines the name as a string literal; so does
 * vitest.config.ts for REA's tests, which run the sources.
 */
declare const __REA_PAGE_SCRIPT__: string

export const PAGE_SCRIPT: string = __REA_PAGE_SCRIPT__
