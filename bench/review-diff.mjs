// What a reviewer reads after a change, measured on the vitest-review fixture project: the lines `git diff
// --numstat` counts in the authority after a one-glyph colour change and after a one-word change re-recorded with
// `vitest -u` (issue 51: at most 12 and 14; the layout before counted 10 and 14, the colour change all in
// `evidence`), whether the colour change shows in the review section, and, side by side in the same rounds, the
// wall time of accepting the kept pending capture (`rea review --accept`) vs re-running the test with `-u`.
import { execFileSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { median, medianPairRatio } from './statistics.mjs'

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const VITEST = path.join(repo, 'node_modules/vitest/vitest.mjs')
const REA = path.join(repo, 'dist/cli/main.cjs')

function run(project, command, args, env = {}) {
  const started = performance.now()
  try {
    execFileSync(command, args, {
      cwd: project,
      env: { ...process.env, CI: '', NO_COLOR: '1', ...env },
      stdio: 'pipe',
    })
  } catch (error) {
    // A mismatch fails the run on purpose; anything else is a broken benchmark.
    if (error.status !== 1) {
      throw new Error(`${path.basename(args[0] ?? command)} failed: ${error.stderr}`, { cause: error })
    }
  }
  return performance.now() - started
}

const git = (project, ...args) =>
  execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.test', ...args], {
    cwd: project,
    encoding: 'utf8',
  })

function changedLines(project) {
  return git(project, 'diff', '--numstat', '--', '__captures__')
    .trim()
    .split('\n')
    .filter(Boolean)
    .reduce((sum, line) => sum + Number(line.split('\t')[0]) + Number(line.split('\t')[1]), 0)
}

function freshProject() {
  const project = mkdtempSync(path.join(tmpdir(), 'rea-bench-review-'))
  cpSync(path.join(repo, 'test/fixtures/projects/vitest-review'), project, { recursive: true })
  mkdirSync(path.join(project, 'node_modules'))
  symlinkSync(repo, path.join(project, 'node_modules/rea-capture'))
  run(project, process.execPath, [VITEST, 'run'])
  git(project, 'init', '-q')
  git(project, 'add', '-A')
  git(project, 'commit', '-q', '-m', 'authorities')
  return project
}

export function runReviewDiffBenchmark({ rounds = 5 } = {}) {
  const colour = []
  const word = []
  const accept = []
  const update = []
  let colourInReview = true
  for (let round = 0; round < rounds; round++) {
    const project = freshProject()
    try {
      for (const [env, counts] of [
        [{ FIXTURE_COLOR: '1' }, colour],
        [{ FIXTURE_WORD: 'chores' }, word],
      ]) {
        // Side by side: the same change accepted from its pending capture, then re-recorded with -u.
        run(project, process.execPath, [VITEST, 'run'], env)
        accept.push(run(project, process.execPath, [REA, 'review', '--accept']))
        if (env.FIXTURE_COLOR !== undefined) {
          colourInReview &&= /^\+ +"1: 1-7 bold «Todo CL», 8 bold red «I»"/m.test(git(project, 'diff', '-U0'))
        }
        git(project, 'checkout', '-q', '--', '.')
        update.push(run(project, process.execPath, [VITEST, 'run', '-u'], env))
        counts.push(changedLines(project))
        git(project, 'checkout', '-q', '--', '.')
      }
    } finally {
      rmSync(project, { recursive: true, force: true })
    }
  }
  return {
    rounds,
    colour_change_lines: { min: Math.min(...colour), max: Math.max(...colour), all: colour },
    one_word_change_lines: { min: Math.min(...word), max: Math.max(...word), all: word },
    colour_change_in_review: colourInReview,
    accept_median_ms: Math.round(median(accept)),
    update_run_median_ms: Math.round(median(update)),
    accept_vs_update: Number(medianPairRatio(accept, update).toFixed(2)),
  }
}
