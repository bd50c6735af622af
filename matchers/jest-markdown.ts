/**
 * `rea-capture/jest-markdown`: a Jest transform that makes a Markdown file a Jest test file, one test per console
 * block (docs/markdown-cases.md). Map `\.md$` to it in `transform`, add `md` to `moduleFileExtensions` and the
 * files to `testMatch`.
 *
 * @example
 * // jest.config.js
 * module.exports = {
 *   setupFilesAfterEnv: ['rea-capture/jest'],
 *   moduleFileExtensions: ['js', 'md'],
 *   testMatch: ['**\/*.test.js', '**\/docs/**\/*.md'],
 *   transform: { '\\.md$': 'rea-capture/jest-markdown' },
 * }
 */

/** The module Jest runs in place of the Markdown file. */
export function process(sourceText: string, sourcePath: string): { code: string } {
  return {
    code: `require('rea-capture/jest').defineMarkdownTests(${JSON.stringify(sourcePath)}, ${JSON.stringify(sourceText)});\n`,
  }
}

export default { process }
