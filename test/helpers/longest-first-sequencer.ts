import path from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * The files that take longest, longest first: nested test runners, a browser, real daemons, each 25 s to about
 * 75 s in a full run on the 2-core machine of docs/performance.md. Update the list when a file joins or leaves
 * them; their order changes from run to run with what runs beside them, so judge it over several runs.
 */
const LONGEST_FILES = [
  'review-pending.test.ts',
  'review-watch.test.ts',
  'vitest-obsolete.test.ts',
  'ownership.test.ts',
  'vitest-plugin-reruns.test.ts',
  'record.test.ts',
  'vitest-plugin.test.ts',
  'jest-timing-obsolete.test.ts',
  'test-environment.test.ts',
  'authority-review.test.ts',
  'cli.test.ts',
  'viewer-browser.test.ts',
  'mcp.test.ts',
  'vitest-timing.test.ts',
  'reporter-vitest.test.ts',
  'waits.test.ts',
  'machine-independence.test.ts',
  'jest-plugin.test.ts',
  'packed-package.test.ts',
]

/**
 * Starts the longest files first, so that the short ones fill in around them instead of the long ones running
 * alone at the end. Vitest orders by the durations of earlier runs when its cache holds them, but a clean clone
 * (CI) has none: it then runs larger files first and each project after the other, and a two-minute file could
 * start halfway through the run. The files not listed keep Vitest's order.
 */
export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files)
    const rank = (file: TestSpecification): number => {
      const index = LONGEST_FILES.indexOf(path.basename(file.moduleId))
      return index === -1 ? LONGEST_FILES.length : index
    }
    // Array.prototype.sort is stable: files outside the list keep Vitest's order.
    return ordered.sort((a, b) => rank(a) - rank(b))
  }
}
