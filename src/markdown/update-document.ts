import { readFileSync } from 'node:fs'
import { errorMessage } from '../internal/error-message.js'
import { writeFileAtomicSync } from '../internal/write-file-atomic.js'
import type { DocumentPlan } from './plan-document.js'
import type { BlockResult } from './run-block.js'
import { applySplices, planUpdate, type Splice } from './update-lines.js'

/**
 * `--update` for one file: the failing commands' rewrites gathered and written at once, whole or not at all,
 * and only over the very bytes the run read (a file edited meanwhile, or one that is not valid UTF-8, is left
 * alone and said so).
 */

export interface DocumentUpdate {
  /** The blocks whose every failing command was rewritten: they now pass, reported as updated. */
  readonly updatedBlocks: ReadonlySet<number>
  /** One sentence per command that could not be updated, or whose wildcards were written out. */
  readonly notes: readonly string[]
  readonly splices: readonly Splice[]
}

export function planDocumentUpdate(plan: DocumentPlan, results: readonly BlockResult[]): DocumentUpdate {
  const splices: Splice[] = []
  const notes: string[] = []
  const updatedBlocks = new Set<number>()
  for (const result of results) {
    let whole = result.outcome === 'failed'
    for (const check of result.checks) {
      if (check.outcome === 'passed') {
        continue
      }
      const update = planUpdate(check, plan.scanned, result.block.fence.indent)
      const where = `line ${check.plan.parsed.line.number}`
      if (update.refused !== null) {
        notes.push(`${where}: not updated: ${update.refused}`)
        whole = false
        continue
      }
      splices.push(...update.splices)
      if (update.lostWildcards.length > 0) {
        notes.push(
          `${where}: rewrote line${update.lostWildcards.length === 1 ? '' : 's'} ${update.lostWildcards.join(', ')}, which held a wildcard or token; put it back where the text still varies`,
        )
      }
    }
    if (whole) {
      updatedBlocks.add(result.index)
    }
  }
  return { updatedBlocks, notes, splices }
}

/** Writes the update; returns why it could not, or null. */
export function writeDocumentUpdate(plan: DocumentPlan, update: DocumentUpdate): string | null {
  if (update.splices.length === 0) {
    return null
  }
  let current: Buffer
  try {
    current = readFileSync(plan.file)
  } catch (error) {
    return `could not read it back to update it: ${errorMessage(error)}`
  }
  if (!current.equals(Buffer.from(plan.text, 'utf8'))) {
    return 'not updated: it changed since the run read it, or it is not valid UTF-8 (REA rewrites only the bytes it read)'
  }
  try {
    writeFileAtomicSync(plan.file, applySplices(plan.text, update.splices))
    return null
  } catch (error) {
    return `could not be updated: ${errorMessage(error)}`
  }
}
