/**
 * Internal entry for `bench/` only (not exported from the package): the pieces benchmarks time directly.
 * @internal
 */
export { scanForRunToken } from './process/token-scan.js'
export { takeSnapshot } from './filesystem/snapshot.js'
export { useSupervisor } from './process/supervisor.js'
export { replayScreen } from './terminal/screen-replay.js'
export { cellAppearance, describeCell } from './compare/cell-appearance.js'
