import type { Evidence, FileEffect, FileEntry } from '../evidence/schema.js'
import { showName } from '../internal/escape-controls.js'
import type { DimensionResult } from './comparison-schema.js'
import { bothSides, endedEarlyResult } from './unknowns/ended-early.js'
import { enumerationGaps } from './unknowns/enumeration-gaps.js'
import { DimensionFindings, notSelected } from './findings.js'

/**
 * The filesystem dimension: each aliased path's effect (created, deleted, modified, unchanged) and the state it
 * ended in — type, size, whole-file digest, mode, symlink target. A path only one side lists is a difference
 * only when the other side enumerated that root completely at both checkpoints; a digest that was not taken
 * leaves an otherwise equal entry unknown, never equal.
 */
export function compareFilesystem(authority: Evidence, reconstruction: Evidence): DimensionResult {
  if (authority.filesystem.status === 'not_selected' && reconstruction.filesystem.status === 'not_selected') {
    return notSelected('no filesystem_observation_paths were selected')
  }
  const ended = endedEarlyResult('filesystem', authority, reconstruction)
  if (ended !== null) {
    return ended
  }
  const findings = new DimensionFindings('filesystem')
  for (const [side, evidence] of bothSides(authority, reconstruction)) {
    for (const name of ['before_launch', 'after_settlement'] as const) {
      if (!evidence.filesystem.checkpoints.some((checkpoint) => checkpoint.name === name)) {
        findings.unknown('checkpoint_missing', `the ${side} has no ${name} filesystem checkpoint`)
      }
    }
    for (const gap of enumerationGaps(evidence)) {
      findings.unknown(gap.reason, `${side}: ${gap.detail}`)
    }
  }
  compareRoots(authority, reconstruction, findings)
  const left = new Map(authority.filesystem.effects.map((effect) => [effect.path, effect]))
  const right = new Map(reconstruction.filesystem.effects.map((effect) => [effect.path, effect]))
  const paths = [...new Set([...left.keys(), ...right.keys()])].sort()
  for (const path of paths) {
    compareEffect(path, left.get(path), right.get(path), authority, reconstruction, findings)
  }
  return findings.result()
}

function compareRoots(authority: Evidence, reconstruction: Evidence, findings: DimensionFindings): void {
  const right = new Map(reconstruction.filesystem.roots.map((root) => [root.alias, root]))
  for (const x of authority.filesystem.roots) {
    const y = right.get(x.alias)
    for (const checkpoint of ['before', 'after'] as const) {
      const p = x[checkpoint]
      const q = y?.[checkpoint] ?? null
      if (p !== null && q !== null && p !== q) {
        findings.differ(
          `filesystem.roots.${x.alias}.${checkpoint}`,
          `observation root ${x.alias} (${showName(x.path)}) was ${describeRootState(p)} ${checkpoint === 'before' ? 'before launch' : 'after settlement'} in the authority, ${describeRootState(q)} in the reconstruction`,
          p,
          q,
          { kind: 'file', path: `${x.alias}:.` },
        )
      }
    }
  }
}

const describeRootState = (state: string): string => (state === 'missing' ? 'missing' : `a ${state}`)

function compareEffect(
  path: string,
  x: FileEffect | undefined,
  y: FileEffect | undefined,
  authority: Evidence,
  reconstruction: Evidence,
  findings: DimensionFindings,
): void {
  const location = { kind: 'file' as const, path }
  for (const [side, effect] of [
    ['authority', x],
    ['reconstruction', y],
  ] as const) {
    if (effect?.status === 'unknown') {
      findings.unknown(
        effect.reason,
        `${showName(path)}: its effect is unknown on the ${side} side (${effect.reason})`,
      )
    }
  }
  if (x?.status === 'unknown' || y?.status === 'unknown') {
    return
  }
  if (x === undefined || y === undefined) {
    const present = x ?? y
    if (present === undefined) {
      return
    }
    const [missingSide, missingEvidence] =
      x === undefined ? (['authority', authority] as const) : (['reconstruction', reconstruction] as const)
    if (!rootExhausted(missingEvidence, path)) {
      findings.unknown(
        'enumeration_incomplete',
        `${showName(path)} is ${present.status} on one side; the ${missingSide} did not enumerate its root completely`,
      )
      return
    }
    findings.differ(
      `filesystem.effects[${path}]`,
      `${showName(path)} was ${present.status} in the ${missingSide === 'authority' ? 'reconstruction' : 'authority'} only`,
      x === undefined ? null : x.status,
      y === undefined ? null : y.status,
      location,
    )
    return
  }
  if (x.status !== y.status) {
    findings.differ(
      `filesystem.effects[${path}].status`,
      `${showName(path)} was ${x.status} in the authority, ${y.status} in the reconstruction`,
      x.status,
      y.status,
      location,
    )
    return
  }
  // Deleted entries are compared by what was deleted; the others by the state they were left in, and a
  // modified entry also by the state it started from.
  const p = x.status === 'deleted' ? x.before : (x.after ?? x.before)
  const q = y.status === 'deleted' ? y.before : (y.after ?? y.before)
  if (p === null || q === null) {
    if (p !== q) {
      findings.differ(
        `filesystem.effects[${path}]`,
        `${showName(path)} was observed on one side only`,
        p,
        q,
        location,
      )
    }
    return
  }
  compareEntries(path, p, q, 'filesystem.files', findings)
  if (x.status === 'modified' && y.status === 'modified') {
    compareEntries(path, x.before, y.before, 'filesystem.files_before', findings)
  }
}

/** `field` names the checkpoint: `filesystem.files` for the state compared, `filesystem.files_before` for a start. */
function compareEntries(
  path: string,
  p: FileEntry,
  q: FileEntry,
  field: string,
  findings: DimensionFindings,
): void {
  const location = { kind: 'file' as const, path }
  const before = field === 'filesystem.files_before' ? ' before launch' : ''
  if (p.type !== q.type) {
    findings.differ(
      `${field}[${path}].type`,
      `${showName(path)} is${before} a ${p.type} in the authority, a ${q.type} in the reconstruction`,
      p.type,
      q.type,
      location,
    )
    return
  }
  if (p.type === 'file' && q.type === 'file') {
    if (p.size !== q.size) {
      findings.differ(
        `${field}[${path}].size`,
        `${showName(path)} has a different size${before}`,
        p.size,
        q.size,
        location,
      )
    } else if (p.sha256 !== null && q.sha256 !== null && p.sha256 !== q.sha256) {
      findings.differ(
        `${field}[${path}].sha256`,
        `${showName(path)} has different content${before}`,
        p.sha256,
        q.sha256,
        location,
      )
    } else if (p.sha256 === null || q.sha256 === null) {
      findings.unknown(
        'digest_unavailable',
        `${showName(path)}: no digest on the ${p.sha256 === null ? (q.sha256 === null ? 'either' : 'authority') : 'reconstruction'} side (see truncation_details hash_omissions), so equal sizes do not prove equal content`,
      )
    }
  }
  if (p.type === 'symlink' && q.type === 'symlink' && p.target !== q.target) {
    findings.differ(
      `${field}[${path}].target`,
      `${showName(path)} points elsewhere${before}`,
      p.target,
      q.target,
      location,
    )
  }
  if ('mode' in p && 'mode' in q && p.mode !== q.mode) {
    findings.differ(
      `${field}[${path}].mode`,
      `${showName(path)} has different permissions${before}`,
      p.mode,
      q.mode,
      location,
    )
  }
}

/** The root holding `path` was enumerated to the end at both checkpoints, so absence there is proven. */
function rootExhausted(evidence: Evidence, path: string): boolean {
  const alias = path.slice(0, path.indexOf(':'))
  const details = evidence.truncation_details
  return [details.filesystem_before, details.filesystem_after].every(
    (accounting) => accounting?.roots.find((root) => root.alias === alias)?.exhausted === true,
  )
}
