import type { ReaErrorCode } from '../errors.js'
import type { CancellingSignal } from './signals.js'

/** Every exit code the CLI uses; `docs/cli.md` documents the same table. */
export const EXIT = {
  ok: 0,
  equivalent: 0,
  different: 1,
  unknown: 2,
  /** `rea review`: some pending capture could not be accepted or rejected (the others were). */
  reviewRefused: 1,
  invalidInput: 3,
  capabilityUnavailable: 4,
  internalError: 70,
  /** sysexits' EX_IOERR: the document could not be written; a capture's Evidence was kept elsewhere. */
  outputFailed: 74,
  cancelledBySighup: 129,
  cancelledBySigint: 130,
  cancelledBySigterm: 143,
} as const

/** One table from error code to exit code; the CLI never classifies errors by their message. */
export const EXIT_CODE_BY_ERROR: Record<ReaErrorCode, number> = {
  INVALID_SCENARIO: EXIT.invalidInput,
  INVALID_EVIDENCE: EXIT.invalidInput,
  EVIDENCE_DIGEST_MISMATCH: EXIT.invalidInput,
  UNSUPPORTED_EVIDENCE_VERSION: EXIT.invalidInput,
  CONTRACT_MISMATCH: EXIT.invalidInput,
  INVALID_TRACE_SPEC: EXIT.invalidInput,
  INVALID_ARGUMENTS: EXIT.invalidInput,
  CAPABILITY_UNAVAILABLE: EXIT.capabilityUnavailable,
  OUTPUT_FAILED: EXIT.outputFailed,
  // Raised only by the test fixtures (rea-capture/vitest, rea-capture/jest); a CLI that met one would have a bug.
  TEST_TIMEOUT: EXIT.internalError,
  INTERNAL: EXIT.internalError,
}

/** 128 + the signal number, the shell's convention for a run ended by a signal. */
export const EXIT_BY_SIGNAL: Record<CancellingSignal, number> = {
  SIGHUP: EXIT.cancelledBySighup,
  SIGINT: EXIT.cancelledBySigint,
  SIGTERM: EXIT.cancelledBySigterm,
}
