import { randomUUID } from 'node:crypto'
import path from 'node:path'
import { threadId } from 'node:worker_threads'
import { setCoverageSink } from '../coverage/coverage-sink.js'
import { takeCaptureCoverage, type CapturedScript } from '../coverage/take-capture-coverage.js'

/*
 * What both runners' glue does with the coverage of captured programs, in a test worker whose runner collects V8
 * coverage: every capture of the worker leaves its coverage files in one folder (see `CaptureCoverage`: a file
 * appears there only once its capture has ended), and when the runner takes the worker's own coverage, the glue
 * takes that folder's scripts and hands them over in the runner's shape.
 */

/** A folder of its own for one test worker (a process, or a thread of one), inside `parent`. */
export function workerCoverageFolder(parent: string): string {
  return path.join(parent, `rea-captures-${process.pid}-${threadId}-${randomUUID().slice(0, 8)}`)
}

/**
 * Makes every capture of this worker collect coverage into the folder `folder` settles to, once it settles: the
 * glue passes a promise because it hooks the runner asynchronously. A rejected promise means the runner could not
 * be hooked: captures then collect nothing (the glue says why).
 */
export function collectCaptureCoverage(folder: Promise<string>): void {
  setCoverageSink({ directory: folder })
}

/** Stops collecting (the runner's coverage is off for this worker). */
export function stopCollectingCaptureCoverage(): void {
  setCoverageSink(undefined)
}

/** The files already named on stderr by this copy of REA (one per worker, in practice). */
const warned = new Set<string>()

/**
 * The scripts of the captures that ended since the last call, their files removed. A script left out because the
 * code V8 ran is not the file on disk (a loader transformed it in memory) is named once on stderr:
 * silence would read as code that never ran.
 */
export function takeCapturedScripts(folder: string): CapturedScript[] {
  const { scripts, dropped } = takeCaptureCoverage(folder)
  for (const { file, reason } of dropped) {
    if (!warned.has(file)) {
      warned.add(file)
      process.stderr.write(`rea-capture: ${describeDropped(file, reason)} (docs/coverage.md)\n`)
    }
  }
  return scripts
}

function describeDropped(file: string, reason: 'not_the_file_on_disk' | 'unreadable_coverage_file'): string {
  switch (reason) {
    case 'not_the_file_on_disk':
      return `the coverage a captured program recorded for ${file} is left out: the code it ran is not that file (a loader such as tsx or ts-node transformed it), so its counts would land on the wrong lines`
    case 'unreadable_coverage_file':
      return `a coverage file a captured program wrote could not be read (${file}): its process was probably killed while writing it`
  }
}
