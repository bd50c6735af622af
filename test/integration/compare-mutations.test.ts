import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { canonicalDigest } from '../../src/evidence/canonical-json.js'
import { computeIdentityDigest } from '../../src/evidence/identity-digest.js'
import { FIELD_RULES } from '../helpers/field-rules.js'
import {
  captureProcess,
  compareCaptures,
  evidenceSchema,
  isReaError,
  parseEvidence,
  type Evidence,
  type ProcessScenarioInput,
} from '../../src/index.js'
import {
  documentNodes,
  effectiveRule,
  rulesCovering,
  schemaLeafPaths,
  type DocumentNode,
} from '../helpers/evidence-paths.js'
import { program } from '../helpers/fixtures.js'
import { rederive } from '../helpers/rederive.js'

/**
 * From one real pair of equivalent captures, every single change of every field must stop a capture from
 * comparing equivalent with itself: import rejects the changed document (its digests are recomputed, so only a
 * derived-fact rule can), or the comparison says different or unknown — unless the field is on the documented
 * not-compared list (test/helpers/field-rules.ts, docs/comparison.md). The list of changes is generated from the
 * schema and the document, never written by hand.
 */
// Mutations reach anywhere in the document; typing each path would only restate the schema.
/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return, @typescript-eslint/no-dynamic-delete, @typescript-eslint/restrict-plus-operands */
type Mutable = any

const roots: string[] = []
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })))

// Output with a normalized port (so chunks keep raw_data), a typed answer, a created report and a non-zero exit.
const scenario: ProcessScenarioInput = {
  executable: program('job.mjs'),
  arguments: ['--listen', '--exit', '3'],
  events: [{ type: 'input', data: 'Ada\r', after: { output: 'Name: ' } }],
  filesystem_observation_paths: ['out'],
  terminal: { columns: 60, rows: 8, scrollback: 20 },
  limits: { process_samples: 4 },
  settle_ms: 50,
}

let pair: [Evidence, Evidence]
beforeAll(async () => {
  const capture = () => {
    const root = mkdtempSync(path.join(tmpdir(), 'rea-mutations-'))
    roots.push(root)
    return captureProcess(scenario, { root })
  }
  pair = await Promise.all([capture(), capture()])
}, 60_000)

type Outcome = 'rejected' | 'different' | 'unknown' | 'equivalent'

/** Recomputes what a careful forger would: every commitment digest, then the identity digest. */
function reseal(
  document: Mutable,
  { identity, commitments = true }: { identity: boolean; commitments?: boolean },
): void {
  for (const name of commitments ? Object.keys(document.commitments ?? {}) : []) {
    const commitment = document.commitments[name]
    if (commitment?.value !== undefined) {
      commitment.sha256 = canonicalDigest(commitment.value)
    }
  }
  if (identity) {
    document.identity_digest = computeIdentityDigest(document)
  }
}

/** Compares a changed copy with the capture it came from; timing is strict, so any changed time shows. */
function outcomeOf(original: Evidence, document: Mutable): Outcome {
  let changed: Evidence
  try {
    changed = parseEvidence(document, 'mutated Evidence')
  } catch (error) {
    if (isReaError(error)) {
      return 'rejected'
    }
    throw error
  }
  try {
    return compareCaptures(original, changed, { timing: 'strict' }).verdict
  } catch (error) {
    if (isReaError(error) && error.code === 'CONTRACT_MISMATCH') {
      return 'rejected'
    }
    throw error
  }
}

/** A different value of the same type, valid where the schema allows (another enum member, hex for hex). */
function changedValue(node: DocumentNode): unknown {
  const value = node.value
  const def = node.schema._zod.def
  if (typeof value === 'boolean') {
    return !value
  }
  if (typeof value === 'number') {
    return value + 1
  }
  if (typeof value !== 'string') {
    return undefined
  }
  if (def.type === 'enum') {
    return Object.values(def.entries).find((entry) => entry !== value)
  }
  if (/^[0-9a-f]{64}$/.test(value)) {
    return `${value.slice(0, -1)}${value.endsWith('0') ? '1' : '0'}`
  }
  if (/^0[0-7]{3,4}$/.test(value)) {
    return `${value.slice(0, -1)}${value.endsWith('7') ? '6' : '7'}`
  }
  if (!Number.isNaN(Date.parse(value)) && /^\d{4}-\d\d-\d\dT/.test(value)) {
    return new Date(Date.parse(value) + 1000).toISOString()
  }
  if (value === '') {
    return 'x'
  }
  const at = Math.floor(value.length / 2)
  return `${value.slice(0, at)}${value[at] === 'x' ? 'y' : 'x'}${value.slice(at + 1)}`
}

function parentOf(document: Mutable, segments: readonly (string | number)[]): Mutable {
  return segments.slice(0, -1).reduce((node: Mutable, segment) => node[segment], document)
}

/** Removes a journal record and closes the gap, so only rules beyond the sequence check can catch it. */
function closeGap(document: Mutable, sequence: number): void {
  const visit = (node: Mutable): void => {
    if (Array.isArray(node)) {
      node.forEach(visit)
    } else if (typeof node === 'object' && node !== null) {
      if (typeof node.sequence === 'number' && typeof node.at_ms === 'number' && node.sequence > sequence) {
        node.sequence--
      }
      Object.values(node).forEach(visit)
    }
  }
  visit(document)
  document.journal.next_sequence--
}

interface Mutation {
  readonly name: string
  readonly node: DocumentNode
  readonly kind: 'change' | 'removal'
  readonly apply: (document: Mutable) => void
}

function mutationsOf(evidence: Evidence): Mutation[] {
  const list: Mutation[] = []
  for (const node of documentNodes(evidenceSchema, evidence)) {
    const { segments } = node
    if (segments.length === 0) {
      continue
    }
    const key = segments.at(-1) as string | number
    const name = segments
      .map((segment) => (typeof segment === 'number' ? `[${segment}]` : `.${segment}`))
      .join('')
    const isLeaf = node.value === null || typeof node.value !== 'object'
    const changed = isLeaf ? changedValue(node) : undefined
    if (changed !== undefined) {
      list.push({
        name,
        node,
        kind: 'change',
        apply: (document) => (parentOf(document, segments)[key] = changed),
      })
    }
    if (node.optional || node.removable) {
      list.push({
        name: `${name} removed`,
        node,
        kind: 'removal',
        apply: (document) => {
          const parent = parentOf(document, segments)
          if (Array.isArray(parent)) {
            parent.splice(key as number, 1)
          } else {
            delete parent[key]
          }
        },
      })
      const sequence = (node.value as { sequence?: unknown } | null)?.sequence
      if (node.removable && typeof sequence === 'number') {
        list.push({
          name: `${name} removed, journal gap closed`,
          node,
          kind: 'removal',
          apply: (document) => {
            parentOf(document, segments).splice(key, 1)
            closeGap(document, sequence)
          },
        })
      }
    }
  }
  return list
}

const leafPaths = schemaLeafPaths(evidenceSchema)

/** Whether comparing equal after this mutation is what the field rules promise. */
function allowedToCompareEqual(mutation: Mutation): boolean {
  const { node } = mutation
  const isContainer = node.value !== null && typeof node.value === 'object'
  // Removing a whole record is harmless only when nothing under it is compared or derived.
  const paths = isContainer
    ? leafPaths.filter(
        (leaf) =>
          leaf === node.path ||
          leaf.startsWith(`${node.path}.`) ||
          leaf.startsWith(`${node.path}[`) ||
          leaf.startsWith(`${node.path}{`),
      )
    : [node.path]
  return paths.every((leaf) => {
    const [entry] = rulesCovering(leaf)
    return entry !== undefined && effectiveRule(entry, node.record ?? node.value).kind === 'not_compared'
  })
}

describe('mutation test', () => {
  test('the pair is equivalent, and every field rule is exercised by the document', () => {
    expect(compareCaptures(pair[0], pair[1]).verdict).toBe('equivalent')
    const reached = new Set(
      pair.flatMap((evidence) => documentNodes(evidenceSchema, evidence).map((node) => node.path)),
    )
    const exercised = FIELD_RULES.filter((entry) =>
      [...reached].some((path) => rulesCovering(path, [entry]).length > 0),
    )
    // The rest (truncation, finalization, hash omissions, …) stay empty in a complete capture of this scenario.
    expect(exercised.length).toBeGreaterThan(FIELD_RULES.length / 2)
  })

  test.each([0, 1])(
    'no change of any field of capture %i compares equivalent unless the field is not compared',
    (side) => {
      const original = pair[side]!
      const list = mutationsOf(original)
      expect(list.length).toBeGreaterThan(250)
      const outcomes: Record<Outcome | 'not compared', number> = {
        rejected: 0,
        different: 0,
        unknown: 0,
        equivalent: 0,
        'not compared': 0,
      }
      const wrong: string[] = []
      for (const mutation of list) {
        const copy: Mutable = JSON.parse(JSON.stringify(original))
        mutation.apply(copy)
        // An edited digest is left as edited; everything else is resealed, as a forger would.
        reseal(copy, {
          identity: mutation.node.path !== 'identity_digest',
          commitments: !/^commitments\.\w+\.sha256$/.test(mutation.node.path),
        })
        const outcome = outcomeOf(original, copy)
        if (outcome !== 'equivalent') {
          outcomes[outcome]++
        } else if (allowedToCompareEqual(mutation)) {
          outcomes['not compared']++
        } else {
          wrong.push(`${mutation.name} (${mutation.kind}; rule path ${mutation.node.path})`)
        }
      }
      console.info(`capture ${side}: ${list.length} mutations ${JSON.stringify(outcomes)}`)
      expect(wrong).toEqual([])
    },
  )
})

describe('regressions: single edits that compared equivalent', () => {
  const copyOf = (evidence: Evidence): Mutable => JSON.parse(JSON.stringify(evidence))
  const verdictOf = (document: Mutable): Outcome => {
    reseal(document, { identity: true })
    return outcomeOf(pair[1], document)
  }

  test.each(['sha256', 'size', 'mode', 'presence'] as const)(
    'an entry of normalized_result.files_after changed in its %s alone is rejected',
    (field) => {
      const document = copyOf(pair[1])
      const key = Object.keys(document.normalized_result.files_after).find((entry) =>
        entry.endsWith('report.json'),
      )!
      const entry = document.normalized_result.files_after[key]
      if (field === 'presence') {
        delete document.normalized_result.files_after[key]
      } else if (field === 'sha256') {
        entry.sha256 = 'f'.repeat(64)
      } else if (field === 'size') {
        entry.size += 1
      } else {
        entry.mode = '0777'
      }
      expect(verdictOf(document)).toBe('rejected')
    },
  )

  test.each(['terminal', 'interaction', 'exit'] as const)(
    'a residual unknown for the %s dimension makes it unknown',
    (dimension) => {
      const document = copyOf(pair[1])
      document.residual_unknowns.push({ dimension, reason: 'lost_by_hand', detail: 'added to the file' })
      reseal(document, { identity: true })
      const comparison = compareCaptures(pair[0], parseEvidence(document))
      expect(comparison.verdict).toBe('unknown')
      expect(comparison.dimensions[dimension]).toMatchObject({
        outcome: 'unknown',
        unknowns: [expect.objectContaining({ reason: 'lost_by_hand' })],
      })
    },
  )

  test('a journal marked incomplete for a reason REA cannot place makes the journal dimensions unknown', () => {
    const document = rederive(copyOf(pair[1]), { incompleteReasons: ['an observation was lost'] })
    reseal(document, { identity: true })
    const comparison = compareCaptures(pair[0], parseEvidence(document))
    expect(comparison.verdict).toBe('unknown')
    for (const dimension of ['terminal', 'interaction', 'exit'] as const) {
      expect(comparison.dimensions[dimension].unknowns).toContainEqual(
        expect.objectContaining({ reason: 'journal_incomplete' }),
      )
    }
    expect(comparison.dimensions.filesystem.outcome).toBe('equal')
  })

  test('a journal marked complete while its accounting says otherwise is rejected', () => {
    const document = copyOf(pair[1])
    document.truncation_details.raw_terminal.drain = 'incomplete'
    rederive(document)
    document.journal = { ...document.journal, complete: true, incomplete_reasons: [] }
    expect(verdictOf(document)).toBe('rejected')
  })

  test('consistent truncation still compares unknown, never equal', () => {
    const drained = rederive(
      (() => {
        const document = copyOf(pair[1])
        document.truncation_details.raw_terminal.drain = 'incomplete'
        return document
      })(),
    )
    expect(verdictOf(drained)).toBe('unknown')
    const cut = copyOf(pair[1])
    cut.truncation_details.filesystem_after.roots[0].exhausted = false
    cut.truncation_details.filesystem_after.count_limit_reached = true
    rederive(cut)
    expect(verdictOf(cut)).toBe('unknown')
  })
})
