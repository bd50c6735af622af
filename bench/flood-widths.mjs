// What the terminal of a current terminal costs a flood: whole `rea capture-process` runs of this build (grapheme
// clusters, REA's reply table) against the build before it (Unicode 6, the emulator's own replies) and a bare
// node-pty reader, in the same rounds, for two floods: 50 MB of ASCII (the flood benchmark's) and 20 MB of text
// dense with emoji and CJK, where the width model does most of its work. Unlike the flood benchmark, every byte
// is retained (limits.output_bytes twice the flood), so the frame renderer draws all of it. The build before is
// REA_BEFORE_CLI=<path to its dist/cli/main.cjs>; without it only this build and the bare reader run.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { median, medianPairRatio } from './statistics.mjs'

const here = path.dirname(fileURLToPath(import.meta.url))
const root = path.resolve(here, '..')

/** 20 MB of lines in which about a third of the characters are emoji (some joined) and CJK. */
const MIXED_LINE = 'status ✅ done ✨ new 👍🏽 ok ❤️ 中文字符 👨‍👩‍👧 family ⚠️ 한글 text\\n'
const FLOODS = {
  ascii: { bytes: 50_000_000, command: (bytes) => `head -c ${bytes} /dev/zero | tr '\\0' a` },
  emoji: {
    bytes: 20_000_000,
    command: (bytes) =>
      `node -e "const l='${MIXED_LINE}';const n=Math.ceil(${bytes}/Buffer.byteLength(l));let o='';for(let i=0;i<n;i++){o+=l;if(o.length>65536){process.stdout.write(o);o=''}}process.stdout.write(o)"`,
  },
}

function contendersFor(work, command) {
  const scenario = path.join(work, 'scenario.json')
  writeFileSync(
    scenario,
    JSON.stringify({ executable: 'sh', arguments: ['-c', command], timeout_ms: 600_000 }),
  )
  const cli = (main) => [
    process.execPath,
    [main, 'capture-process', scenario, '--json', '--output', path.join(work, 'capture.json')],
  ]
  const before = process.env.REA_BEFORE_CLI
  return {
    'rea, this build': cli(path.join(root, 'dist/cli/main.cjs')),
    ...(before === undefined || before === '' ? {} : { 'rea, the build before': cli(before) }),
    'bare node-pty reader': [process.execPath, [path.join(here, 'bare-pty-reader.mjs'), command]],
  }
}

function timeFlood(kind, rounds) {
  const { bytes, command } = FLOODS[kind]
  const work = mkdtempSync(path.join(tmpdir(), 'rea-bench-flood-widths-'))
  try {
    const contenders = contendersFor(work, command(bytes), bytes)
    const times = Object.fromEntries(Object.keys(contenders).map((name) => [name, []]))
    for (let round = 0; round < rounds; round++) {
      // Alternate within each round so that machine load affects every contender alike.
      for (const [name, [file, args]] of Object.entries(contenders)) {
        const started = performance.now()
        const result = spawnSync(file, args, { stdio: ['ignore', 'ignore', 'pipe'], cwd: work })
        if (result.status !== 0) {
          throw new Error(
            `${name} failed with status ${result.status}: ${result.stderr.toString().slice(-400)}`,
          )
        }
        times[name].push(performance.now() - started)
      }
    }
    const now = times['rea, this build']
    const before = times['rea, the build before']
    return {
      kind,
      bytes,
      rounds,
      rows: Object.entries(times).map(([name, values]) => ({
        name,
        median_ms: Math.round(median(values)),
        mb_per_s: Number((bytes / 1e6 / (median(values) / 1000)).toFixed(1)),
      })),
      // Throughput of this build against the build before: above 1 is faster, below 1 slower.
      ...(before === undefined
        ? {}
        : {
            throughput_vs_before: Number((median(before) / median(now)).toFixed(2)),
            throughput_vs_before_pairs: Number(medianPairRatio(before, now).toFixed(2)),
          }),
      throughput_vs_bare_reader: Number(medianPairRatio(times['bare node-pty reader'], now).toFixed(2)),
    }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

export function runFloodWidthsBenchmark(rounds = Number(process.env.FLOOD_WIDTHS_ROUNDS ?? 9)) {
  return Object.keys(FLOODS).map((kind) => timeFlood(kind, rounds))
}
