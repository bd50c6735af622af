/**
 * What a test run may write, in the snapshot vocabulary both runners share: `all` rewrites mismatching
 * authorities (`-u`), `new` writes missing ones only (a local run), `none` writes nothing (CI: Vitest when `CI`
 * is set, Jest with `--ci`).
 */
export type UpdateMode = 'all' | 'new' | 'none'

const MODES: readonly string[] = ['all', 'new', 'none']

/**
 * Reads the mode from the runner's snapshot state: Vitest ≥ 4.1.4 exposes `snapshotUpdateState`; older Vitest
 * and Jest keep it in the private `_updateSnapshot`. Without a snapshot state (a matcher called outside a test)
 * nothing is written, the safe choice, unless `CI` is unset, when missing authorities are recorded as snapshots are.
 */
export function updateModeOf(snapshotState: unknown): UpdateMode {
  const state = snapshotState as { snapshotUpdateState?: unknown; _updateSnapshot?: unknown } | undefined
  for (const candidate of [state?.snapshotUpdateState, state?._updateSnapshot]) {
    if (typeof candidate === 'string' && MODES.includes(candidate)) {
      return candidate as UpdateMode
    }
  }
  return isCi() ? 'none' : 'new'
}

/** Whether this run is in CI (`CI` set to anything but empty, `0` or `false`): then nothing is written. */
export function isCi(): boolean {
  const ci = process.env['CI']
  return ci !== undefined && ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false'
}
