/**
 * The surface of the core for REA's front ends (the CLI, the MCP server, the matchers and the reporters), beside
 * `src/index.ts` and `src/host.ts`: the helpers they share for writing files, wording errors, reading a pair of
 * Evidence files and showing text to people. Not part of the public API (a library user never needs them), so it may change with the front
 * ends. Named re-exports only; lint keeps these names out of `src/index.ts`.
 */
export { escapeControlCharacters, showName } from './internal/escape-controls.js'
export { outputPathIssues } from './internal/output-path.js'
export type { OutputInput } from './internal/output-path.js'
export { privateCopyPath } from './internal/private-copy.js'
export { writeFileAtomic, writeFileAtomicSync } from './internal/write-file-atomic.js'
export { describeSystemError } from './internal/system-error.js'
export { errorMessage } from './internal/error-message.js'
export { settleEvidencePair } from './evidence/read-pair.js'
