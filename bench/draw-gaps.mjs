// How far apart real programs write the pieces of one reaction, which is what the default settle of a wait
// (WAIT_SETTLE_MS, docs/events.md#a-wait-holds-on-a-settled-screen) must cover. Each program of the fidelity
// benchmark (bench/fidelity/cases.mjs) is captured once by REA with its steps, every wait given quiet_ms 1000 so
// that no piece is cut off by the settle under test; the gaps between consecutive output chunks shorter than 1 s
// are gaps inside a reaction (a longer one is the program waiting for input). Live programs (htop, top) redraw on
// a timer and are left out.
//
//   node bench/run.mjs draw-gaps
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { FIDELITY_CASES } from './fidelity/cases.mjs'
import { removeTmuxServer } from './tmux-server.mjs'

const here = path.dirname(fileURLToPath(import.meta.url))
const root = path.resolve(here, '..')
const ENVIRONMENT = { TERM: 'xterm-256color', LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', TMUX: null }
const REACTION_GAP_MS = 1000

function stepWait(wait) {
  if (wait === null) {
    return { output_regex: '[\\s\\S]', quiet_ms: REACTION_GAP_MS }
  }
  return typeof wait === 'object' ? { quiet_ms: wait.quiet } : { screen: wait, quiet_ms: REACTION_GAP_MS }
}

export async function runDrawGapsBenchmark() {
  const { captureProcess } = await import(path.join(root, 'dist/index.js'))
  const only = (process.env.FIDELITY_ONLY ?? '').split(',').filter((name) => name !== '')
  const results = []
  for (const spec of FIDELITY_CASES.filter(
    (entry) => entry.live !== true && (only.length === 0 || only.includes(entry.name)),
  )) {
    const base = mkdtempSync(path.join(tmpdir(), 'rea-draw-gaps-'))
    try {
      const work = path.join(base, 'work')
      const home = path.join(base, 'home')
      mkdirSync(work)
      mkdirSync(home)
      spec.setup?.(work)
      const [executable, ...args] = spec.command
      const evidence = await captureProcess(
        {
          executable,
          arguments: args,
          environment: { ...ENVIRONMENT, HOME: home, ...spec.environment },
          terminal: { scrollback: 0 },
          events: spec.steps.map((step) => ({
            type: 'input',
            ...(step.keys === undefined ? { data: step.send } : { keys: step.keys }),
            after: { ...stepWait(step.wait), within_ms: 15_000 },
          })),
          timeout_ms: 15_000 * (spec.steps.length + 1),
        },
        { root: work },
      ).catch((error) => ({ error }))
      if ('error' in evidence) {
        results.push({ name: spec.name, skipped: String(evidence.error.message ?? evidence.error) })
        continue
      }
      const times = evidence.terminal.chunks.map((chunk) => chunk.at_ms)
      const gaps = times.slice(1).map((time, index) => time - times[index])
      const inside = gaps.filter((gap) => gap > 0 && gap < REACTION_GAP_MS).sort((a, b) => a - b)
      results.push({
        name: spec.name,
        chunks: times.length,
        largest_gap_ms: inside.at(-1) ?? 0,
        gaps_over_50_ms: inside.filter((gap) => gap > 50),
      })
    } finally {
      rmSync(base, { recursive: true, force: true })
      // The tmux the case runs inside REA is a server of its own: REA ends it with the capture, its socket stays.
      if (spec.name === 'tmux inside') {
        removeTmuxServer('rea-fidelity-inner')
      }
    }
  }
  return results
}
