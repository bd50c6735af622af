import { getSystemErrorMap } from 'node:util'
import { errorMessage } from './error-message.js'

/** The operating system's error code (`ENOENT`, `ENOSPC`…) of a failed call, or undefined for other errors. */
export function systemErrorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined
}

let descriptions: Map<string, string> | undefined

/**
 * The code and the system's description, e.g. `ENOSPC: no space left on device`, for messages. The description
 * comes from libuv's table: Node's own message has it for file calls but not for stream writes (`write EPIPE`).
 */
export function describeSystemError(error: unknown): string {
  const code = systemErrorCode(error)
  if (code === undefined) {
    return errorMessage(error)
  }
  descriptions ??= new Map([...getSystemErrorMap().values()])
  const description = descriptions.get(code)
  return description === undefined ? code : `${code}: ${description}`
}
