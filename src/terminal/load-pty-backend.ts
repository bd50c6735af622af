import { createRequire } from 'node:module'
import type * as NodePty from 'node-pty'
import { ReaError } from '../errors.js'
import { firstLineOf, loadNativeBinding } from '../internal/native-binding.js'
import type { PtyBackend } from './pty-backend.js'

export const WINDOWS_CAPTURE_REASON =
  'Native Windows capture is unavailable: the PTY adapter does not yet verify cleanup of descendant processes. ' +
  'Reinstalling the Windows PTY binary does not change this, and Job Object controls used elsewhere do not ' +
  'establish PTY capture support.'
export const WINDOWS_CAPTURE_HINT =
  'To capture Linux commands, run Linux REA inside WSL and adapt the scenario to that host. Comparing saved ' +
  'Evidence (rea compare-process-captures, MCP compare_process_captures) works on Windows.'
export const PTY_REINSTALL_HINT =
  'Reinstall rea-capture for this platform, architecture and Node.js version with optional dependencies enabled, ' +
  'e.g. `npm install --include=optional rea-capture` (node-pty is an optional dependency with a native binary).'

/** Chooses the spawner: unset or `auto` (REA's own on Linux when built, else node-pty), `native`, `node-pty`. */
export const PTY_BACKEND_VARIABLE = 'REA_PTY_BACKEND'
const BACKEND_CHOICES = ['auto', 'native', 'node-pty'] as const
type BackendChoice = (typeof BACKEND_CHOICES)[number]

export const NATIVE_REBUILD_HINT =
  "Rebuild it with `npm rebuild rea-capture` (it needs a C compiler, make and python3, as node-pty's build does), or " +
  `set ${PTY_BACKEND_VARIABLE}=node-pty to capture through node-pty.`

let loaded: Promise<PtyBackend> | undefined

/** Loads a PTY backend on first use, so a missing native binary is a capability error and never an import crash. */
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
  const choice = backendChoice()
  if (choice !== 'node-pty' && process.platform === 'linux') {
    const native = loadNativeBinding()
    if ('binding' in native) {
      const { createNativePtyBackend } = await import('./native-pty-backend.js')
      return createNativePtyBackend(native.binding)
    }
    if (choice === 'native') {
      throw new ReaError(
        'CAPABILITY_UNAVAILABLE',
        `${PTY_BACKEND_VARIABLE}=native, but REA's native PTY spawner could not be loaded: ${native.problem}`,
        { hint: NATIVE_REBUILD_HINT },
      )
    }
  } else if (choice === 'native') {
    throw new ReaError(
      'CAPABILITY_UNAVAILABLE',
      `${PTY_BACKEND_VARIABLE}=native, but REA's native PTY spawner exists only on Linux; on ${process.platform} ` +
        'captures use node-pty.',
      { hint: `Unset ${PTY_BACKEND_VARIABLE} or set it to auto.` },
    )
  }
  return loadNodePtyBackend()
}

function backendChoice(): BackendChoice {
  const value = process.env[PTY_BACKEND_VARIABLE]
  if (value === undefined || value === '') {
    return 'auto'
  }
  const choice = BACKEND_CHOICES.find((candidate) => candidate === value)
  if (choice === undefined) {
    throw new ReaError(
      'CAPABILITY_UNAVAILABLE',
      `The environment variable ${PTY_BACKEND_VARIABLE} is ${JSON.stringify(value)}; it must be one of ` +
        `${BACKEND_CHOICES.join(', ')} (or unset, which is auto).`,
    )
  }
  return choice
}

async function loadNodePtyBackend(): Promise<PtyBackend> {
  let pty: typeof NodePty
  try {
    // node-pty is CommonJS: required, it skips the ESM loader's scan of its exports, and the CLI's CommonJS
    // bundle loads it with require, as it does every CommonJS package.
    pty = createRequire(import.meta.url)('node-pty') as typeof NodePty
  } catch (error) {
    throw new ReaError(
      'CAPABILITY_UNAVAILABLE',
      `The native PTY backend (node-pty) could not be loaded: ${firstLineOf(error)}`,
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
