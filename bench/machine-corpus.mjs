// Recorded here, checked anywhere: 20 real commands recorded on one "machine" and checked on another with the test
// plugin's defaults alone (`rea capture-process --test-environment`), and 12 real behaviour changes that must stay
// different. Not run in CI: it needs root (real users, host names), and takes a few minutes.
//
//   npm run build && node bench/machine-corpus.mjs                 # this checkout's dist/
//   REA_DIST=/path/to/other/dist node bench/machine-corpus.mjs     # another build, for a before/after table
//   node bench/machine-corpus.mjs --filters temp_names,uuids       # the scenarios name these filters themselves
//
// The two machines differ in: the checkout's path (and its depth), the user (real accounts made for the run), HOME,
// TMPDIR, the host name (a UTS namespace each), the inherited locale, time zone, colour and CI variables, the day
// (machine B runs every command under faketime, one day later) and the load (two busy loops during B's captures).
import { spawn, spawnSync } from 'node:child_process'
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs'
import { writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const here = path.dirname(fileURLToPath(import.meta.url))
const repo = path.resolve(here, '..')
const dist = path.resolve(process.env.REA_DIST ?? path.join(repo, 'dist'))
const cli = path.join(dist, 'cli/main.cjs')
const { compareCaptures, parseEvidence } = await import(pathToFileURL(path.join(dist, 'index.js')).href)
const filtersArgument = process.argv.indexOf('--filters')
const explicitFilters =
  filtersArgument === -1
    ? undefined
    : process.argv[filtersArgument + 1].split(',').filter((name) => name !== '')

if (process.getuid() !== 0) {
  console.log('machine-corpus: skipped: it creates users and host names, which needs root')
  process.exit(0)
}
// Machine B's day is shifted by preloading libfaketime through `env`, which execs the program: the `faketime`
// command forks and waits instead, so B's program would run under an extra parent process that a real second
// machine does not have (ps listed it; a SIGINT event reached the wrapper, not the program).
const LIBFAKETIME = [
  '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1',
  '/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1',
  '/usr/lib/faketime/libfaketime.so.1',
].find((file) => existsSync(file))
const fakeDay = LIBFAKETIME !== undefined
if (!fakeDay) {
  console.log(
    'machine-corpus: libfaketime is not installed (apt-get install faketime): machine B runs on the same day',
  )
}

/** The 20 commands that must hold: the same program on both machines. */
const HOLD = [
  ['git init', { executable: './git-init.sh' }],
  ['git commit and log', { executable: './git-log.sh' }],
  ['ls -l', { executable: 'ls', arguments: ['-l', 'data'] }],
  ['date', { executable: 'date' }],
  ['mktemp -d', { executable: 'mktemp', arguments: ['-d'] }],
  ['node --test', { executable: 'node', arguments: ['--test', 'checks/plain.node-test.mjs'] }],
  [
    'python -m unittest',
    { executable: 'python3', arguments: ['-m', 'unittest', '-v', 'checks/test_plain.py'] },
  ],
  [
    'vitest run',
    { executable: 'node', arguments: ['node_modules/vitest/vitest.mjs', 'run'], timeout_ms: 60_000 },
  ],
  ['node stack trace', { executable: 'node', arguments: ['crash.cjs'] }],
  ['npm init -y', { executable: 'npm', arguments: ['init', '-y'], working_directory: 'fresh' }],
  ['tar -cvf', { executable: 'tar', arguments: ['-cvf', '/dev/null', 'data'] }],
  ['du -sh', { executable: 'du', arguments: ['-sh', 'data'] }],
  [
    'python -m http.server',
    {
      executable: 'python3',
      arguments: ['-u', '-m', 'http.server', '0', '--bind', '127.0.0.1'],
      events: [{ type: 'signal', signal: 'SIGINT', after: { output: 'Serving HTTP' } }],
      timeout_ms: 30_000,
    },
  ],
  ['node mkdtemp report', { executable: 'node', arguments: ['report.mjs'] }],
  ['python tempfile', { executable: 'python3', arguments: ['tempfile.py'] }],
  ['random session uuid', { executable: 'node', arguments: ['ids.mjs'] }],
  [
    'user and host banner',
    { executable: 'sh', arguments: ['-c', 'echo "deploying as $(id -un)@$(hostname)"'] },
  ],
  ['ps -o pid,comm', { executable: 'ps', arguments: ['-o', 'pid,comm'] }],
  ['stat owner and size', { executable: 'stat', arguments: ['-c', '%n %s %U', 'data/a.txt'] }],
  ['German date', { executable: 'node', arguments: ['locale-date.mjs'] }],
]

/** Behaviour changes: machine B runs a changed program (other arguments); the comparison must stay different. */
const CHANGES = [
  ['greeting shouts', ['node', ['greet.mjs']], ['node', ['greet.mjs', '--shout']]],
  ['exit code 0 → 3', ['sh', ['-c', 'echo ok; exit 0']], ['sh', ['-c', 'echo ok; exit 3']]],
  [
    'a node test fails',
    ['node', ['--test', 'checks/plain.node-test.mjs']],
    ['node', ['--test', 'checks/failing.node-test.mjs']],
  ],
  [
    'a unittest fails',
    ['python3', ['-m', 'unittest', 'checks/test_plain.py']],
    ['python3', ['-m', 'unittest', 'checks/test_failing.py']],
  ],
  ['a file grew (ls -l)', ['ls', ['-l', 'data']], ['ls', ['-l', 'data-changed']]],
  ['another temp prefix', ['node', ['report.mjs', 'report-']], ['node', ['report.mjs', 'export-']]],
  ['a fixed date moves', ['node', ['release.mjs', '2026-12-31']], ['node', ['release.mjs', '2027-01-31']]],
  ['a configured back-off', ['node', ['retry.mjs', '5']], ['node', ['retry.mjs', '10']]],
  ['a name-based uuid', ['node', ['uuid5.mjs', 'alpha']], ['node', ['uuid5.mjs', 'beta']]],
  [
    'file content checksum',
    ['sh', ['-c', 'sha256sum < data/b.txt']],
    ['sh', ['-c', 'sha256sum < data-changed/b.txt']],
  ],
  ['one more file', ['sh', ['-c', 'ls data | wc -l']], ['sh', ['-c', 'ls data-changed | wc -l']]],
  ['another commit message', ['./git-log.sh', ['Add a greeting']], ['./git-log.sh', ['Add a farewell']]],
]

const base = mkdtempSync(path.join(os.tmpdir(), 'rea-corpus-'))
chmodSync(base, 0o755)
const users = ['a', 'b'].map((letter) => `reacorp${letter}`)
for (const user of users) {
  spawnSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', user])
}

function machine(letter, parts, user, hostname, inherited) {
  const top = path.join(base, ...parts)
  mkdirSync(top, { recursive: true })
  const clone = path.join(top, 'project')
  cpSync(path.join(here, 'machine-corpus/project'), clone, { recursive: true })
  // Each package linked into a node_modules of the clone's own: Vitest writes its bundled config there.
  mkdirSync(path.join(clone, 'node_modules'))
  for (const entry of readdirSync(path.join(repo, 'node_modules'))) {
    if (!entry.startsWith('.')) {
      symlinkSync(path.join(repo, 'node_modules', entry), path.join(clone, 'node_modules', entry))
    }
  }
  mkdirSync(path.join(clone, 'fresh'))
  const home = path.join(top, `home-${user}`)
  const tmp = path.join(top, `tmp-${user}`)
  mkdirSync(home)
  mkdirSync(tmp)
  const uid = Number(spawnSync('id', ['-u', user], { encoding: 'utf8' }).stdout)
  const gid = Number(spawnSync('id', ['-g', user], { encoding: 'utf8' }).stdout)
  for (const folder of [clone, home, tmp]) {
    spawnSync('chown', ['-R', `${uid}:${gid}`, folder])
  }
  for (let folder = top; folder !== base; folder = path.dirname(folder)) {
    chmodSync(folder, 0o755)
  }
  const environment = {
    PATH: '/usr/bin:/bin',
    HOME: home,
    TMPDIR: tmp,
    USER: user,
    LOGNAME: user,
    ...inherited,
  }
  return { letter, clone, home, tmp, user, hostname, environment }
}

const machines = [
  machine('A', ['a'], users[0], 'alpha-laptop', {
    LANG: 'en_US.UTF-8',
    TZ: 'Europe/Berlin',
    COLORTERM: 'truecolor',
    TERM_PROGRAM: 'vscode',
  }),
  machine('B', ['b', 'builds', 'runner', 'work'], users[1], 'ci-runner-7', {
    LANG: 'C',
    TZ: 'America/New_York',
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    NO_COLOR: '1',
  }),
]

/** Captures a scenario on a machine; resolves with the Evidence or the CLI's complaint. */
async function capture(target, name, scenario) {
  const file = path.join(target.clone, `${name}.scenario.json`)
  const output = path.join(target.clone, `${name}.capture.json`)
  const shifted =
    target.letter === 'B' && fakeDay
      ? {
          ...scenario,
          executable: 'env',
          arguments: [
            `LD_PRELOAD=${LIBFAKETIME}`,
            'FAKETIME=+1d',
            scenario.executable,
            ...(scenario.arguments ?? []),
          ],
        }
      : scenario
  const normalization = explicitFilters === undefined ? {} : { normalization: { filters: explicitFilters } }
  writeFileSync(file, JSON.stringify({ ...shifted, ...normalization }))
  chmodSync(file, 0o644)
  const argv = [
    'unshare',
    '-u',
    'sh',
    '-c',
    `hostname ${target.hostname} && exec "$@"`,
    'sh',
    'setpriv',
    '--reuid',
    target.user,
    '--regid',
    target.user,
    '--init-groups',
    'env',
    '-i',
    ...Object.entries(target.environment).map(([key, value]) => `${key}=${value}`),
    process.execPath,
    cli,
    'capture-process',
    file,
    '--test-environment',
    '--json',
    '--output',
    output,
  ]
  const child = spawn(argv[0], argv.slice(1), { cwd: target.clone, stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (text) => (stderr += text))
  const code = await new Promise((resolve) => child.on('close', resolve))
  if (code !== 0) {
    return { error: `exit ${code}: ${stderr.split('\n').find((line) => !line.startsWith('{')) ?? stderr}` }
  }
  return { evidence: parseEvidence(JSON.parse(readFileSync(output, 'utf8')), output) }
}

function verdictOf(authority, reconstruction) {
  if ('error' in authority || 'error' in reconstruction) {
    return { verdict: 'error', detail: authority.error ?? reconstruction.error }
  }
  try {
    const comparison = compareCaptures(authority.evidence, reconstruction.evidence)
    const first = comparison.terminal_diff?.unified.split('\n').find((line) => /^[-+][^-+]/.test(line))
    const dimensions = Object.entries(comparison.dimensions)
      .filter(([, result]) => result.outcome !== 'equal' && result.outcome !== 'not_selected')
      .map(([name, result]) => `${name} ${result.outcome}`)
    return {
      verdict: comparison.verdict,
      detail: [dimensions.join(', '), first ?? ''].filter(Boolean).join(': '),
      hint: hintOf(comparison),
    }
  } catch (error) {
    return { verdict: 'incomparable', detail: error.message.split('\n')[0] }
  }
}

/** The rules a failing comparison proposes (normalization_hint, redaction_hint), as a table cell. */
function hintOf(comparison) {
  const normalization = comparison.normalization_hint
  const parts = []
  if (normalization !== null && normalization !== undefined) {
    const rules = [...normalization.placeholders, ...normalization.filters].join(', ')
    const share = normalization.covered
      ? ` (${normalization.covered.lines} of ${normalization.covered.of} lines)`
      : ''
    parts.push(`${rules}${share}`)
  }
  const redaction = comparison.redaction_hint
  if (redaction !== undefined) {
    const share = redaction.covered ? ` (${redaction.covered.lines} of ${redaction.covered.of} lines)` : ''
    parts.push(`redaction ${redaction.redactions.map((rule) => `/${rule.regex}/`).join(' ')}${share}`)
  }
  return parts.join('; ')
}

function busyLoops(count) {
  return Array.from({ length: count }, () =>
    spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
  )
}

const rows = []
try {
  for (const [name, scenario] of HOLD) {
    const key = name.replace(/\W+/g, '-')
    const authority = await capture(machines[0], key, scenario)
    const load = busyLoops(2)
    let reconstruction
    try {
      reconstruction = await capture(machines[1], key, scenario)
    } finally {
      for (const loop of load) loop.kill('SIGKILL')
    }
    rows.push({ kind: 'hold', name, ...verdictOf(authority, reconstruction) })
  }
  for (const [name, [executable, args], [changedExecutable, changedArgs]] of CHANGES) {
    const key = `change-${name.replace(/\W+/g, '-')}`
    const authority = await capture(machines[0], key, { executable, arguments: args })
    const reconstruction = await capture(machines[1], key, {
      executable: changedExecutable,
      arguments: changedArgs,
    })
    rows.push({ kind: 'change', name, ...verdictOf(authority, reconstruction) })
  }
} finally {
  rmSync(base, { recursive: true, force: true })
  for (const user of users) {
    spawnSync('userdel', [user])
  }
}

const held = rows.filter((row) => row.kind === 'hold' && row.verdict === 'equivalent').length
const stayed = rows.filter((row) => row.kind === 'change' && row.verdict === 'different').length
console.log(
  `REA ${dist}${explicitFilters === undefined ? '' : `, scenarios name filters [${explicitFilters.join(', ')}]`}`,
)
console.log('| kind | command | verdict | first difference | hint |')
console.log('| --- | --- | --- | --- | --- |')
const cell = (text) => (text ?? '').replaceAll('|', '\\|').slice(0, 160)
for (const row of rows) {
  console.log(`| ${row.kind} | ${row.name} | ${row.verdict} | ${cell(row.detail)} | ${cell(row.hint)} |`)
}
const failing = rows.filter((row) => row.kind === 'hold' && row.verdict === 'different')
const hinted = failing.filter((row) => row.hint !== '')
console.log(
  `\n${held} of ${HOLD.length} commands hold across machines; ${stayed} of ${CHANGES.length} behaviour changes stay different; ${hinted.length} of ${failing.length} commands that differ get a hint naming a rule.`,
)
