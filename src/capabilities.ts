import { isReaError } from './errors.js'
import { prepareProcessInspection } from './process/prepare-inspection.js'
import { loadPtyBackend } from './terminal/load-pty-backend.js'
import { REA_VERSION } from './version.js'

export type CapabilityStatus = 'available' | 'unavailable'

export interface Capability {
  readonly status: CapabilityStatus
  readonly detail: string
  /** What to do about an unavailable capability. */
  readonly hint?: string
}

export interface CapabilityReport {
  readonly rea_version: string
  readonly platform: NodeJS.Platform
  readonly arch: string
  readonly node_version: string
  /** Whether this host can capture: a working PTY backend and process ownership inspection. */
  readonly capture: Capability
  readonly pty_backend: Capability
  readonly process_inspection: Capability
  /** Comparing saved Evidence needs neither a PTY nor the captured program, so it works everywhere. */
  readonly comparison: Capability
}

const PTY_PROBE_TIMEOUT_MS = 10_000

/**
 * Diagnoses what this host can do. The PTY backend is checked by running `/bin/sh -c 'exit 0'` in a real PTY,
 * so an installed but broken native binary is caught, and told apart from the Windows adapter limitation.
 */
export async function checkCapabilities(): Promise<CapabilityReport> {
  const pty = await probePtyBackend()
  const inspection = await probeProcessInspection()
  const capture: Capability =
    pty.status === 'available' && inspection.status === 'available'
      ? { status: 'available', detail: 'PTY capture with process ownership inspection' }
      : {
          status: 'unavailable',
          detail: pty.status === 'unavailable' ? pty.detail : inspection.detail,
          ...((pty.status === 'unavailable' ? pty.hint : inspection.hint) === undefined
            ? {}
            : { hint: (pty.status === 'unavailable' ? pty.hint : inspection.hint) as string }),
        }
  return {
    rea_version: REA_VERSION,
    platform: process.platform,
    arch: process.arch,
    node_version: process.version,
    capture,
    pty_backend: pty,
    process_inspection: inspection,
    comparison: { status: 'available', detail: 'compare saved Evidence (no PTY, no target launched)' },
  }
}

/** A capability error as the report shows it: its message and hint. Anything else is a bug and is thrown. */
function unavailableFrom(error: unknown): Capability {
  if (!isReaError(error)) {
    throw error
  }
  return {
    status: 'unavailable',
    detail: error.message,
    ...(error.hint === undefined ? {} : { hint: error.hint }),
  }
}

async function probePtyBackend(): Promise<Capability> {
  let backend
  try {
    backend = await loadPtyBackend()
  } catch (error) {
    return unavailableFrom(error)
  }
  let session
  try {
    session = backend.spawn({
      file: '/bin/sh',
      executablePath: '/bin/sh',
      args: ['-c', 'exit 0'],
      cwd: '/',
      env: { PATH: '/usr/bin:/bin' },
      columns: 80,
      rows: 24,
      terminalType: 'xterm-256color',
    })
  } catch (error) {
    return {
      status: 'unavailable',
      detail: `the ${backend.name} PTY backend loaded but could not start a process: ${String(error)}`,
    }
  }
  try {
    let timer: NodeJS.Timeout | undefined
    const exit = await Promise.race([
      session.exited,
      new Promise<undefined>(
        (resolve) => (timer = setTimeout(() => resolve(undefined), PTY_PROBE_TIMEOUT_MS)),
      ),
    ])
    clearTimeout(timer)
    if (exit === undefined) {
      return {
        status: 'unavailable',
        detail: `a test process in a PTY did not finish within ${PTY_PROBE_TIMEOUT_MS} ms`,
      }
    }
    if (exit.exitCode !== 0 || exit.signal !== 0) {
      return {
        status: 'unavailable',
        detail: `a test process in a PTY ended with code ${exit.exitCode}, signal ${exit.signal}`,
      }
    }
    return {
      status: 'available',
      detail: `the ${backend.name} PTY backend ran a test process (output drain ${exit.drain})`,
    }
  } finally {
    session.dispose()
  }
}

/**
 * Inspection is checked by using it: reading this process's identity and environment through the inspector
 * for this host. On macOS that first compiles REA's helper with xcrun, as a capture would.
 */
async function probeProcessInspection(): Promise<Capability> {
  let inspector
  try {
    inspector = await prepareProcessInspection()
  } catch (error) {
    return isReaError(error)
      ? unavailableFrom(error)
      : { status: 'unavailable', detail: `process inspection failed: ${String(error)}` }
  }
  try {
    const stat = inspector.readStat(process.pid)
    const environ = inspector.readEnviron(process.pid, Buffer.from('PATH='))
    inspector.bootId()
    if (stat.status !== 'ok' || environ.status !== 'ok') {
      return {
        status: 'unavailable',
        detail: `${inspector.name} does not expose process status and environments here`,
      }
    }
    return { status: 'available', detail: `${inspector.name}: start identity, environment token, boot id` }
  } catch (error) {
    return { status: 'unavailable', detail: `${inspector.name} is not usable: ${String(error)}` }
  }
}
