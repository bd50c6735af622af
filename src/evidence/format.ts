/** Identifies REA process-capture Evidence documents. */
export const EVIDENCE_FORMAT = 'rea.process-capture.evidence'

/**
 * The Evidence format version. 0 while the format is still settling; it is frozen as 1 once the test-framework
 * plugin ships, and every later change adds a version and keeps older files readable for what they can prove.
 */
export const EVIDENCE_FORMAT_VERSION = 0
