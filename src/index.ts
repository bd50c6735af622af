export { captureProcess } from './capture/capture-process.js'
export type { CaptureProcessOptions } from './capture/capture-process.js'
export type { CaptureDisposition, CapturePhase, CleanupStates, ProgressRecord } from './capture/progress.js'
export { ReaError, formatReaError, isReaError } from './errors.js'
export type { ReaErrorCode, ReaIssue } from './errors.js'
export { processScenarioSchema } from './scenario/schema.js'
export type { ProcessScenario, ProcessScenarioInput, ScenarioEvent } from './scenario/schema.js'
export { validateScenario } from './scenario/validate.js'
export { evidenceSchema } from './evidence/schema.js'
export type { Evidence, ExitRecord, TerminalChunk, TerminalFrame } from './evidence/schema.js'
export { EVIDENCE_FORMAT, EVIDENCE_FORMAT_VERSION } from './evidence/format.js'
export { REA_VERSION } from './version.js'
export {
  parseEvidence,
  parseEvidenceText,
  readEvidenceFile,
  serializeEvidence,
  writeEvidenceFile,
} from './evidence/load.js'
export { readJournal } from './evidence/journal.js'
export type { JournalEntry } from './evidence/journal.js'
export { summarizeEvidence } from './evidence/summary.js'
export type { SummaryOptions } from './evidence/summary.js'
export { canonicalJson, canonicalJsonDocument } from './evidence/canonical-json.js'
export { jsonSchemaFor, SCHEMA_NAMES } from './json-schemas.js'
export type { SchemaName } from './json-schemas.js'
export { checkCapabilities } from './capabilities.js'
export type { Capability, CapabilityReport, CapabilityStatus } from './capabilities.js'
