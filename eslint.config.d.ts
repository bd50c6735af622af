import type { Linter } from 'eslint'

/** The rules that keep the structure (layers, the PTY host boundary, the front ends' surface); tested on fixtures. */
export declare const STRUCTURE_RULES: Linter.Config[]
declare const config: Linter.Config[]
export default config
