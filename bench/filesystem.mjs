// Filesystem snapshots: REA's whole-file hashing vs sha256sum over the same files, and enumeration of many
// small files vs find + sha256sum. Both sides read from a warm page cache.
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, statfsSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { takeSnapshot } from '../dist/bench-internals.js'
import { median } from './statistics.mjs'

const MB = 1024 * 1024

/** Mixed sizes, about `totalMb` in all: a few large files, some medium, many small. */
function buildMixedTree(directory, totalMb) {
  const plan = [
    [Math.max(1, Math.round(totalMb / 64)), 32 * MB],
    [Math.max(1, Math.round(totalMb / 8)), 2 * MB],
    [Math.max(1, totalMb * 2), 64 * 1024],
    [Math.max(1, totalMb * 8), 4 * 1024],
  ]
  let index = 0
  for (const [count, size] of plan) {
    const content = Buffer.alloc(size)
    for (let file = 0; file < count; file++) {
      content.writeUInt32LE(index, 0)
      const target = path.join(directory, `d${index % 16}`, `f${index}.bin`)
      mkdirSync(path.dirname(target), { recursive: true })
      writeFileSync(target, content)
      index++
    }
  }
  return index
}

function age(directory, files) {
  // Settled files: written long enough ago that REA reads them once (no confirmation read).
  const past = new Date(Date.now() - 3600_000)
  for (const file of files) {
    utimesSync(path.join(directory, file), past, past)
  }
}

function listFiles(directory) {
  return execFileSync('find', ['.', '-type', 'f'], { cwd: directory, encoding: 'utf8', maxBuffer: 64 * MB })
    .split('\n')
    .filter(Boolean)
}

function sha256sumAll(directory) {
  const result = spawnSync('sh', ['-c', 'find . -type f -print0 | xargs -0 sha256sum > /dev/null'], {
    cwd: directory,
  })
  if (result.status !== 0) {
    throw new Error('sha256sum failed')
  }
}

async function timeBoth(directory, limits, rounds, prepareRound = () => {}) {
  const rea = []
  const baseline = []
  sha256sumAll(directory) // warm the page cache for both
  for (let round = 0; round < rounds; round++) {
    prepareRound() // untimed
    let started = performance.now()
    const snapshot = await takeSnapshot([directory], limits)
    rea.push(performance.now() - started)
    if (snapshot.accounting.hash_omissions.length > 0 || !snapshot.accounting.roots[0].exhausted) {
      throw new Error('the benchmark tree did not fit the limits')
    }
    started = performance.now()
    sha256sumAll(directory)
    baseline.push(performance.now() - started)
  }
  return { rea_median_ms: Math.round(median(rea)), sha256sum_median_ms: Math.round(median(baseline)) }
}

export async function runFilesystemBenchmark({
  totalMb = Number(process.env.REA_BENCH_TREE_MB ?? 256),
  rounds = 5,
} = {}) {
  const results = {}
  const work = mkdtempSync(path.join(tmpdir(), 'rea-bench-fs-'))
  try {
    const free = statfsSync(work)
    const freeMb = (free.bavail * free.bsize) / MB
    if (freeMb < totalMb * 2 + 200) {
      results.hashing = {
        skipped: `only ${Math.round(freeMb)} MB free; the ${totalMb} MB tree needs about ${totalMb * 2 + 200} MB`,
      }
    } else {
      const tree = path.join(work, 'mixed')
      const count = buildMixedTree(tree, totalMb)
      age(tree, listFiles(tree))
      const limits = { fileCount: count + 100, depth: 8, fileBytes: (totalMb + 64) * MB }
      const settled = await timeBoth(tree, limits, rounds)
      results.hashing = {
        files: count,
        total_mb: totalMb,
        ...settled,
        mb_per_s: Math.round(totalMb / (settled.rea_median_ms / 1000)),
        ratio_vs_sha256sum: Number((settled.sha256sum_median_ms / settled.rea_median_ms).toFixed(2)),
      }
      // The same tree just written: each file gets a confirmation read. The times are renewed before every
      // round, or later rounds would fall outside the recent-write window and be read once.
      const files = listFiles(tree)
      const touch = () => {
        const now = new Date()
        for (const file of files) {
          utimesSync(path.join(tree, file), now, now)
        }
      }
      const fresh = await timeBoth(tree, limits, 3, touch)
      results.hashing.recently_written_ratio_vs_sha256sum = Number(
        (fresh.sha256sum_median_ms / fresh.rea_median_ms).toFixed(2),
      )
      rmSync(tree, { recursive: true, force: true })
    }
    const small = path.join(work, 'small')
    for (let index = 0; index < 20_000; index++) {
      const target = path.join(small, `d${index % 100}`, `f${index}.txt`)
      if (index < 100) {
        mkdirSync(path.dirname(target), { recursive: true })
      }
      writeFileSync(target, `file ${index}\n`)
    }
    age(small, listFiles(small))
    const enumeration = await timeBoth(small, { fileCount: 25_000, depth: 8, fileBytes: 64 * MB }, 3)
    results.small_files = {
      files: 20_000,
      ...enumeration,
      ratio_vs_find_sha256sum: Number(
        (enumeration.sha256sum_median_ms / enumeration.rea_median_ms).toFixed(2),
      ),
    }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
  return results
}
