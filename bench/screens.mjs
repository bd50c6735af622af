// The screens level: two real 8 MiB captures compared by stream and by screens, in the same runs. Two pairs:
// - one line changed in the middle (the compare benchmark's pair): the final screens are the same recording, so
//   the screens level redraws nothing and costs what the stream level does;
// - the same output with its colour spelled two ways on every line (ESC [ 34 m against ESC [ 38 ; 5 ; 4 m): the
//   streams differ from the first line, the recorded frames too, and the screens level redraws the final frame
//   with its 1,000 rows of scrollback and compares 80,000 cells; the stream level, finding the terminal different,
//   redraws it as well to say whether every screen is equal (screens_equal).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { captureProcess, compareCaptures } from '../dist/index.js'
import { captureOutput } from './compare.mjs'
import { median, medianPairRatio } from './statistics.mjs'

const MIB = 1024 * 1024
const RUNS = 7

/** Prints `mib` MiB of numbered 64-byte lines, each coloured with `colour` (an SGR parameter string). */
const colourPrinter = (mib, colour) =>
  `const lines=${(mib * MIB) / 64};let out='';for(let i=0;i<lines;i++){out+='\\x1b[${colour}m'+('line '+i).padEnd(50,'.')+'\\x1b[39m\\n';if(out.length>65536){process.stdout.write(out);out=''}}process.stdout.write(out)`

async function captureColoured(directory, mib, colour) {
  return captureProcess(
    {
      executable: process.execPath,
      arguments: ['-e', colourPrinter(mib, colour)],
      limits: { output_bytes: 2 * mib * MIB },
      timeout_ms: 120_000,
    },
    { root: directory },
  )
}

function timeLevels(a, b) {
  const stream = []
  const screens = []
  let verdicts
  for (let run = 0; run < RUNS; run++) {
    // Alternate, so that machine load affects both levels alike.
    let start = performance.now()
    const byStream = compareCaptures(a, b, { timing: 'ignore' })
    stream.push(performance.now() - start)
    start = performance.now()
    const byScreens = compareCaptures(a, b, { timing: 'ignore', terminal: 'screens' })
    screens.push(performance.now() - start)
    verdicts = { stream: byStream.verdict, screens: byScreens.verdict, screens_equal: byStream.screens_equal }
  }
  return {
    ...verdicts,
    stream_median_ms: Math.round(median(stream)),
    screens_median_ms: Math.round(median(screens)),
    screens_vs_stream: Number((median(screens) / median(stream)).toFixed(2)),
    screens_vs_stream_pairs: Number(medianPairRatio(screens, stream).toFixed(2)),
  }
}

export async function runScreensBenchmark(mib = 8) {
  const directory = mkdtempSync(path.join(tmpdir(), 'rea-bench-screens-'))
  try {
    const middle = (mib * MIB) / 64 / 2
    const changed = timeLevels(
      (await captureOutput(directory, mib, -1)).evidence,
      (await captureOutput(directory, mib, middle)).evidence,
    )
    const spelled = timeLevels(
      await captureColoured(directory, mib, '34'),
      await captureColoured(directory, mib, '38;5;4'),
    )
    return { mib, runs: RUNS, one_line_changed: changed, colour_spelled_two_ways: spelled }
  } finally {
    rmSync(directory, { recursive: true, force: true })
  }
}
