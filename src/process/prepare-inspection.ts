import { ReaError } from '../errors.js'
import { processInspector, useProcessInspector, type ProcessInspector } from './inspector.js'

/**
 * Makes process inspection ready before a capture starts: `/proc` on Linux; on macOS, compiles REA's helper
 * (once per process) and installs the inspector that uses it. Elsewhere capture is not possible.
 */
export async function prepareProcessInspection(): Promise<ProcessInspector> {
  const active = processInspector()
  if (active !== undefined) {
    return active
  }
  if (process.platform === 'darwin') {
    // Loaded only here: a capture on Linux has no use for its schemas.
    const [{ prepareMacosHelper }, { createMacosInspector }] = await Promise.all([
      import('./macos-helper.js'),
      import('./inspector-macos.js'),
    ])
    const helper = await prepareMacosHelper()
    const inspector = createMacosInspector(helper.run)
    useProcessInspector(inspector)
    return inspector
  }
  throw new ReaError(
    'CAPABILITY_UNAVAILABLE',
    `Process ownership inspection is not available on ${process.platform}, so REA cannot guarantee cleanup there.`,
  )
}
