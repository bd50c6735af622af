import type { StartIdentity } from './identity.js'

/**
 * What REA tells its supervisor over the pipe, one JSON object per line: a capture's token before its command
 * starts (`own`), the root's start identity once it has one (`root`), and that cleanup is done (`release`).
 */
export type SupervisorMessage =
  | { readonly kind: 'own'; readonly token: string; readonly since_ticks: number }
  | { readonly kind: 'root'; readonly token: string; readonly identity: StartIdentity }
  | { readonly kind: 'release'; readonly token: string }

export function encodeSupervisorMessage(message: SupervisorMessage): string {
  return `${JSON.stringify(message)}\n`
}

/** Undefined for a line that is not a message: the pipe carries only REA's own writes, so that is a bug. */
export function decodeSupervisorMessage(line: string): SupervisorMessage | undefined {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch {
    // Not JSON: not a message; the caller skips it.
    return undefined
  }
  if (typeof value !== 'object' || value === null) {
    return undefined
  }
  const message = value as Partial<Record<string, unknown>>
  if (typeof message['token'] !== 'string') {
    return undefined
  }
  switch (message['kind']) {
    case 'own':
      return typeof message['since_ticks'] === 'number' ? (value as SupervisorMessage) : undefined
    case 'root':
      return isIdentity(message['identity']) ? (value as SupervisorMessage) : undefined
    case 'release':
      return value as SupervisorMessage
    default:
      return undefined
  }
}

function isIdentity(value: unknown): value is StartIdentity {
  if (typeof value !== 'object' || value === null) {
    return false
  }
  const identity = value as Partial<Record<string, unknown>>
  return (
    typeof identity['pid'] === 'number' &&
    typeof identity['start_ticks'] === 'number' &&
    typeof identity['boot_id'] === 'string'
  )
}
