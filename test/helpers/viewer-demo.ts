import { captureProcess, type Evidence } from '../../src/index.js'
import { program } from './fixtures.js'

/** The value typed at the secret prompt; it must never appear in Evidence, pages or recordings. */
export const DEMO_SECRET = 'hunter22!'

/**
 * A capture of viewer-demo.mjs driven through a name, a sensitive secret, a resize and a SIGINT, so every kind
 * of event a page or a recording shows is there. `formal` makes the program greet differently. The first input
 * waits 1.5 s so that even a loaded machine has started Node and set raw mode by then.
 */
export function captureDemo(formal = false): Promise<Evidence> {
  return captureProcess({
    executable: program('viewer-demo.mjs'),
    arguments: formal ? ['--formal'] : [],
    terminal: { columns: 60, rows: 12, scrollback: 100 },
    events: [
      { type: 'input', at_ms: 1500, data: 'Ada\r' },
      { type: 'input', at_ms: 2000, data: `${DEMO_SECRET}\r`, sensitive: true },
      { type: 'resize', at_ms: 2500, columns: 72, rows: 14 },
      { type: 'signal', at_ms: 3000, signal: 'SIGINT' },
    ],
    timeout_ms: 20_000,
  })
}
