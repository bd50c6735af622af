/**
 * Internal entry for `bench/` only (not exported from the package): the pieces benchmarks time directly.
 * @internal
 */
export { scanForRunToken } from './process/token-scan.js'
export { takeSnapshot } from './filesystem/snapshot.js'
export { useSupervisor } from './process/supervisor.js'
export { replayScreen } from './screen/screen-replay.js'
export { cellAppearance, describeCell } from './screen/cell-appearance.js'
export { encodeKeys } from './screen/keys.js'
