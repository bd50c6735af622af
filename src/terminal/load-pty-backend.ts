import { createRequire } from 'node:module'
import type * as NodePty from 'node-pty'
import { ReaError } from '../errors.js'
import type { PtyBackend } from './pty-backend.js'

export const WINDOWS_CAPTURE_REASON =
  'Native Windows capture is unavailable: the PTY adapter does not yet verify cleanup of descendant processes. ' +
  'Reinstalling the Windows PTY binary does not change this, and Job Object controls used elsewhere do not ' +
  'establish PTY capture support.'
export const WINDOWS_CAPTURE_HINT =
  'To capture Linux commands, run Linux REA inside WSL and adapt the scenario to that host. Comparing saved ' +
  'Evidence (rea compare-process-captures, MCP compare_process_captures) works on Windows.'
export const PTY_REINSTALL_HINT =
  'Reinstall REA for this platform, architecture and Node.js version with optional dependencies enabled, ' +
  'e.g. `npm install --include=optional` (node-pty is an optional dependency with a native binary).'

let loaded: Promise<PtyBackend> | undefined

/** Loads node-pty on first use, so a missing native binary is a capability error and never an import crash. */
export function loadPtyBackend(): Promise<PtyBackend> {
  loaded ??= importBackend()
  loaded.catch(() => {
    // A failed load is not cached: a reinstall in a long-lived process (an MCP server) can then succeed.
    loaded = undefined
  })
  return loaded
}

async function importBackend(): Promise<PtyBackend> {
  if (process.platform === 'win32') {
    throw new ReaError('CAPABILITY_UNAVAILABLE', WINDOWS_CAPTURE_REASON, { hint: WINDOWS_CAPTURE_HINT })
  }
  if (process.platform !== 'linux' && process.platform !== 'darwin') {
    throw new ReaError(
      'CAPABILITY_UNAVAILABLE',
      `Capture is supported on Linux and macOS, not ${process.platform}.`,
    )
  }
  let pty: typeof NodePty
  try {
    // node-pty is CommonJS: required, it skips the ESM loader's scan of its exports, and the CLI's CommonJS
    // bundles (compiled from a V8 code cache, src/cli/load-bundle.ts) hold no dynamic import.
    pty = createRequire(import.meta.url)('node-pty') as typeof NodePty
  } catch (error) {
    throw new ReaError(
      'CAPABILITY_UNAVAILABLE',
      `The native PTY backend (node-pty) could not be loaded: ${describe(error)}`,
      {
        cause: error,
        hint: PTY_REINSTALL_HINT,
      },
    )
  }
  // A broken install can leave a module without `spawn` despite the type.
  if (typeof (pty as typeof NodePty | undefined)?.spawn !== 'function') {
    throw new ReaError('CAPABILITY_UNAVAILABLE', 'The installed node-pty module has no spawn function.', {
      hint: PTY_REINSTALL_HINT,
    })
  }
  const { createNodePtyBackend } = await import('./node-pty-backend.js')
  return createNodePtyBackend(pty)
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.message.split('\n')[0] ?? error.name) : String(error)
}
