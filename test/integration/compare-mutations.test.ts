import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { computeIdentityDigest } from '../../src/evidence/identity-digest.js'
import {
  captureProcess,
  compareCaptures,
  parseEvidenceText,
  serializeEvidence,
  type Evidence,
  type ProcessScenarioInput,
} from '../../src/index.js'
import { program } from '../helpers/fixtures.js'

/**
 * From one real pair of equivalent captures, every single mutation of a compared, non-timing field must stop
 * the pair from comparing equivalent: either import rejects the mutated document (its digest is recomputed,
 * so only a consistency rule can), or the comparison says different or unknown.
 */
// Mutations reach anywhere in the document; typing each path would only restate the schema.
/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return, @typescript-eslint/restrict-plus-operands */
type Mutable = any
interface Mutation {
  readonly name: string
  readonly apply: (evidence: Mutable) => void
}

const roots: string[] = []
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })))

const scenario: ProcessScenarioInput = {
  executable: program('job.mjs'),
  events: [{ type: 'input', at_ms: 1500, data: 'Ada\r' }],
  filesystem_observation_paths: ['out'],
  settle_ms: 50,
}

let authority: Evidence
let reconstruction: Evidence
beforeAll(async () => {
  const capture = () => {
    const root = mkdtempSync(path.join(tmpdir(), 'rea-mutations-'))
    roots.push(root)
    return captureProcess(scenario, { root })
  }
  ;[authority, reconstruction] = await Promise.all([capture(), capture()])
}, 30_000)

const flip = (text: string, index: number): string => {
  const character = text[index] === 'x' ? 'y' : 'x'
  return `${text.slice(0, index)}${character}${text.slice(index + 1)}`
}

/** Removes the journal entry with `sequence` and closes the gap, so the journal check still accepts it. */
function renumberAfter(evidence: Mutable, sequence: number): void {
  const records: Mutable[] = [
    ...evidence.terminal.chunks,
    ...evidence.terminal.omitted_chunks,
    ...evidence.terminal.frames,
    ...evidence.interactions,
    ...evidence.process.samples,
    ...(evidence.exit.finalization?.signals ?? []),
    ...evidence.filesystem.checkpoints,
    evidence.exit,
  ]
  for (const record of records) {
    if (record.sequence > sequence) {
      record.sequence--
    }
  }
  evidence.journal.next_sequence--
}

function mutations(base: Evidence): Mutation[] {
  const list: Mutation[] = []
  // One output character, at 150 places spread over the normalized stream.
  const chunks = base.terminal.chunks
  const total = chunks.reduce((sum, chunk) => sum + chunk.data.length, 0)
  for (let n = 0; n < 150; n++) {
    let offset = Math.floor((n * total) / 150)
    const index = chunks.findIndex((chunk) =>
      offset < chunk.data.length ? true : ((offset -= chunk.data.length), false),
    )
    list.push({
      name: `output character ${n} (chunk ${index} +${offset})`,
      apply: (e) => (e.terminal.chunks[index].data = flip(e.terminal.chunks[index].data, offset)),
    })
  }
  // One cell of a checkpoint frame, in every row of every checkpoint frame.
  base.terminal.frames.forEach((frame, frameIndex) => {
    if (!frame.checkpoint || frame.status !== 'retained') {
      return
    }
    frame.lines.forEach((line, row) => {
      const column = line.length === 0 ? 0 : row % line.length
      list.push({
        name: `frame ${frameIndex} row ${row} column ${column}`,
        apply: (e) => {
          const lines: string[] = e.terminal.frames[frameIndex].lines
          lines[row] = line.length === 0 ? 'x' : flip(line, column)
        },
      })
    })
    list.push({
      name: `frame ${frameIndex} cursor`,
      apply: (e) => (e.terminal.frames[frameIndex].cursor.column += 1),
    })
    list.push({
      name: `frame ${frameIndex} serialized state`,
      apply: (e) => (e.terminal.frames[frameIndex].serialized_state += '\u001b[1m'),
    })
  })
  // Exit fields.
  list.push(
    { name: 'exit code 1', apply: (e) => (e.exit.code = 1) },
    { name: 'exit code null', apply: (e) => (e.exit.code = null) },
    { name: 'exit signal 9', apply: (e) => (e.exit.signal = 9) },
    { name: 'exit reason timeout', apply: (e) => (e.exit.reason = 'timeout') },
    {
      name: 'finalization added',
      apply: (e) => (e.exit.finalization = { requested_ms: 100, elapsed_ms: 0, exit_code: 0, signals: [] }),
    },
  )
  // File digests, sizes, modes and effects.
  base.filesystem.effects.forEach((effect, index) => {
    if (effect.after?.type !== 'file') {
      return
    }
    const path = effect.path
    const update = (e: Mutable, change: (entry: Mutable) => void) => {
      change(e.filesystem.effects[index].after)
      change(e.normalized_result.files_after[path])
    }
    list.push(
      { name: `${path} digest`, apply: (e) => update(e, (entry) => (entry.sha256 = 'f'.repeat(64))) },
      { name: `${path} size`, apply: (e) => update(e, (entry) => (entry.size += 1)) },
      { name: `${path} mode`, apply: (e) => update(e, (entry) => (entry.mode = '0777')) },
      { name: `${path} effect deleted`, apply: (e) => (e.filesystem.effects[index].status = 'deleted') },
      { name: `${path} effect dropped`, apply: (e) => e.filesystem.effects.splice(index, 1) },
    )
  })
  list.push({
    name: 'observation root missing after',
    apply: (e) => (e.filesystem.roots[0].after = 'missing'),
  })
  // Interaction outcomes.
  base.interactions.forEach((_interaction, index) => {
    list.push(
      { name: `interaction ${index} skipped`, apply: (e) => (e.interactions[index].outcome = 'skipped') },
      { name: `interaction ${index} failed`, apply: (e) => (e.interactions[index].outcome = 'failed') },
      { name: `interaction ${index} type`, apply: (e) => (e.interactions[index].type = 'resize') },
      {
        name: `interaction ${index} delivery`,
        apply: (e) => (e.interactions[index].delivery = 'identity-changed'),
      },
      {
        name: `interaction ${index} failed with a reason`,
        apply: (e) => Object.assign(e.interactions[index], { outcome: 'failed', reason: 'EIO' }),
      },
    )
  })
  // Truncation flags: alone (import must reject the inconsistency) and with consistent accounting.
  list.push(
    { name: 'flag: truncated alone', apply: (e) => (e.truncated = true) },
    { name: 'flag: raw terminal alone', apply: (e) => (e.truncation_details.raw_terminal.truncated = true) },
    {
      name: 'flag: rendered terminal alone',
      apply: (e) => (e.truncation_details.rendered_terminal.truncated = true),
    },
    {
      name: 'flag: filesystem after alone',
      apply: (e) => (e.truncation_details.filesystem_after.truncated = true),
    },
    { name: 'flag: journal incomplete alone', apply: (e) => (e.journal.complete = false) },
    {
      name: 'drain incomplete, consistently',
      apply: (e) => {
        e.truncation_details.raw_terminal.drain = 'incomplete'
        e.truncation_details.raw_terminal.truncated = true
        e.truncated = true
      },
    },
    {
      name: 'filesystem root not exhausted, consistently',
      apply: (e) => {
        e.truncation_details.filesystem_after.roots[0].exhausted = false
        e.truncation_details.filesystem_after.truncated = true
        e.truncated = true
      },
    },
    {
      name: 'a checkpoint frame omitted, consistently',
      apply: (e) => {
        const index = e.terminal.frames.findIndex((frame: Mutable) => frame.checkpoint)
        const { sequence, at_ms, trigger, checkpoint, event_index } = e.terminal.frames[index]
        e.terminal.frames[index] = {
          sequence,
          at_ms,
          trigger,
          checkpoint,
          event_index,
          status: 'omitted',
          reason: 'rendered_bytes_budget',
        }
        const rendered = e.truncation_details.rendered_terminal
        rendered.omitted_for_budget += 1
        rendered.retained_frames -= 1
        rendered.truncated = true
        e.truncated = true
      },
    },
  )
  // Dropped journal entries of every compared kind, the gap closed so the journal check accepts them.
  chunks.forEach((chunk, index) =>
    list.push({
      name: `dropped chunk ${index}`,
      apply: (e) => {
        e.terminal.chunks.splice(index, 1)
        e.truncation_details.raw_terminal.retained_chunks -= 1
        renumberAfter(e, chunk.sequence)
      },
    }),
  )
  base.terminal.frames.forEach((frame, index) => {
    if (frame.checkpoint) {
      list.push({
        name: `dropped checkpoint frame ${index}`,
        apply: (e) => {
          e.terminal.frames.splice(index, 1)
          renumberAfter(e, frame.sequence)
        },
      })
    }
  })
  base.interactions.forEach((interaction, index) =>
    list.push({
      name: `dropped interaction ${index}`,
      apply: (e) => {
        e.interactions.splice(index, 1)
        renumberAfter(e, interaction.sequence)
      },
    }),
  )
  base.filesystem.checkpoints.forEach((checkpoint, index) =>
    list.push({
      name: `dropped filesystem checkpoint ${checkpoint.name}`,
      apply: (e) => {
        e.filesystem.checkpoints.splice(index, 1)
        renumberAfter(e, checkpoint.sequence)
      },
    }),
  )
  return list
}

describe('mutation test', () => {
  test('no single mutation of a compared field compares as equivalent', () => {
    expect(compareCaptures(authority, reconstruction).verdict).toBe('equivalent')
    const list = mutations(reconstruction)
    expect(list.length).toBeGreaterThanOrEqual(200)
    const outcomes = { rejected: 0, different: 0, unknown: 0 }
    const equivalent: string[] = []
    for (const mutation of list) {
      const copy: Mutable = JSON.parse(JSON.stringify(reconstruction))
      mutation.apply(copy)
      copy['identity_digest'] = computeIdentityDigest(copy)
      let mutated: Evidence
      try {
        mutated = parseEvidenceText(serializeEvidence(copy), mutation.name)
      } catch {
        outcomes.rejected++
        continue
      }
      const verdict = compareCaptures(authority, mutated).verdict
      if (verdict === 'equivalent') {
        equivalent.push(mutation.name)
      } else {
        outcomes[verdict]++
      }
    }
    expect(equivalent).toEqual([])
    // Most mutations are located differences; consistency rules and honest unknowns cover the rest.
    expect(outcomes.different).toBeGreaterThan(outcomes.rejected + outcomes.unknown)
    console.info(`mutations: ${list.length} (${JSON.stringify(outcomes)})`)
  })
})
