/** Identifies REA process-capture Evidence documents. */
export const EVIDENCE_FORMAT = 'rea.process-capture.evidence'

/**
 * The Evidence format version, frozen at 1 since authority files are committed: every later change adds a
 * version and keeps version-1 files readable for what they can prove. (0 was the unreleased development form.)
 */
export const EVIDENCE_FORMAT_VERSION = 1
