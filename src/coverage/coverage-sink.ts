import type { CoverageOptions } from './capture-coverage.js'

/**
 * Where captures leave their coverage when the test runner collects V8 coverage: registered by the runner's glue
 * (`rea-capture/vitest`, `rea-capture/jest`) in each test worker, read by every `captureProcess` of that worker
 * that was not given `coverage` itself, so the library's function, the Vitest fixture and the Jest helper all
 * collect without a word from the test.
 */
export interface CoverageSink {
  /**
   * The folder, once the runner's side is hooked (the glue finds the runner's coverage module asynchronously): a
   * capture waits for it, and collects nothing if it rejected (the glue has said why).
   */
  readonly directory: Promise<string>
}

// On globalThis under a registered symbol: REA may be loaded twice in one worker (its ES module and CommonJS
// builds, or a copy a runner inlined into a test file), and every copy must see the one sink.
const SINK = Symbol.for('rea-capture.coverage-sink')

type SinkHolder = { [SINK]?: CoverageSink | undefined }

/** Registers this worker's sink; `undefined` removes it. */
export function setCoverageSink(sink: CoverageSink | undefined): void {
  // A rejection is the glue's to report (it did); unobserved until a capture asks, it must not count as unhandled.
  sink?.directory.catch(() => undefined)
  ;(globalThis as SinkHolder)[SINK] = sink
}

/** The coverage a capture collects when given none: the registered sink's folder; undefined without one. */
export async function coverageFromSink(): Promise<CoverageOptions | undefined> {
  const sink = (globalThis as SinkHolder)[SINK]
  if (sink === undefined) {
    return undefined
  }
  try {
    return { directory: await sink.directory }
  } catch {
    // The glue could not hook the runner and already said so: collecting would fill a folder nobody reads.
    return undefined
  }
}
