// The programs bench/fidelity.mjs runs, and how each is driven. A case: the command (run in a fresh folder, the
// same path for every run of the case, with HOME in a folder beside it), an optional environment and `setup(work)`
// that fills the folder first, and steps. A step waits, then sends: `wait` is a text to see on the screen, null
// for any new output, or `{ quiet: ms }` for that long without output; `send` is bytes (one write, as typed or
// pasted) and `keys` named keys (typed one at a time). REA's waits use its default settle, no hand-tuned quiet_ms.
// `live: true` marks a program whose screens show live data and cannot equal another run's.
import { execFileSync } from 'node:child_process'
import { copyFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const here = path.dirname(fileURLToPath(import.meta.url))
export const SAMPLE = path.join(here, 'sample.txt')
const CURSES_DEMO = path.join(here, 'curses-demo.py')
const PAGE = path.join(here, 'page.html')

const withSample = (work) => copyFileSync(SAMPLE, path.join(work, 'sample.txt'))

/** A repository with one commit (fixed author and dates) and one changed line, as `git add -p` and tig see it. */
function gitRepository(work) {
  const git = (...args) =>
    execFileSync('git', args, {
      cwd: work,
      env: {
        ...process.env,
        GIT_CONFIG_GLOBAL: '/dev/null',
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_AUTHOR_NAME: 'Ada Lovelace',
        GIT_AUTHOR_EMAIL: 'ada@example.test',
        GIT_COMMITTER_NAME: 'Ada Lovelace',
        GIT_COMMITTER_EMAIL: 'ada@example.test',
        GIT_AUTHOR_DATE: '2026-01-02T03:04:05Z',
        GIT_COMMITTER_DATE: '2026-01-02T03:04:05Z',
      },
      stdio: 'ignore',
    })
  writeFileSync(path.join(work, 'notes.txt'), 'alpha\nbeta\ngamma\n')
  git('init', '-q', '-b', 'main')
  git('add', 'notes.txt')
  git('commit', '-q', '-m', 'first commit: three notes')
  writeFileSync(path.join(work, 'notes.txt'), 'alpha\nbeta, changed ✅\ngamma\n')
}

const GIT_ENVIRONMENT = { GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', GIT_PAGER: null }

/** The programs measured before this version (docs/fidelity.md), then the 23 added with it. */
export const FIDELITY_CASES = [
  {
    name: 'vim',
    command: ['vim', '-N', '-u', 'NONE', '-i', 'NONE', '-n', SAMPLE],
    steps: [{ wait: 'fidelity sample', send: ':q!\r' }],
  },
  { name: 'less', command: ['less', SAMPLE], steps: [{ wait: 'box:', send: 'q' }] },
  { name: 'htop', command: ['htop'], live: true, steps: [{ wait: 'F10Quit', send: 'q' }] },
  { name: 'nano', command: ['nano', '-I', SAMPLE], steps: [{ wait: 'Exit', send: '\x18' }] },
  {
    name: 'mc',
    command: ['mc', '-u', '-X', '-d', here, here],
    steps: [{ wait: '10Quit', send: '\x1b[21~' }],
  },
  {
    name: 'fzf',
    command: ['sh', '-c', 'printf "alpha\\nbeta ✅\\ngamma 中\\n" | fzf'],
    steps: [{ wait: '3/3', send: '\x1b' }],
  },
  {
    name: 'dialog',
    command: ['dialog', '--msgbox', 'Hello from REA ✅ 中文', '8', '40'],
    steps: [{ wait: '<  OK  >', send: '\r' }],
  },
  {
    name: 'whiptail',
    command: ['whiptail', '--yesno', 'Continue? ✨', '8', '40'],
    steps: [{ wait: '<Yes>', send: '\r' }],
  },
  {
    name: 'python3 REPL',
    command: ['/usr/bin/python3', '-q'],
    steps: [
      { wait: '>>>', send: 'print("中文 ✅ \\x1b[1;31mred\\x1b[0m")\r' },
      { wait: null, send: 'exit()\r' },
    ],
  },
  {
    name: 'bash',
    command: ['bash', '--norc', '--noprofile', '-i'],
    environment: { PS1: '$ ' },
    steps: [
      { wait: '$', send: "printf '\\e[1;31mred\\e[0m ✅ 中 \\e[44m blue \\e[0m\\n'\r" },
      { wait: null, send: 'exit\r' },
    ],
  },
  {
    name: 'vttest menus',
    command: ['vttest'],
    steps: [
      { wait: 'Enter choice number', send: '1\r' },
      // The cursor-movement test: its 80-column screen, the same at 132 columns, then autowrap.
      { wait: null, send: '\r' },
      { wait: null, send: '\r' },
      { wait: null, send: '\r' },
    ],
  },
  {
    name: 'sqlite3',
    command: ['sqlite3'],
    steps: [
      { wait: 'sqlite>', send: "select 6 * 7, 'ok ✅';\r" },
      { wait: '42', send: '.quit\r' },
    ],
  },
  {
    name: 'bc',
    command: ['bc', '-q'],
    // bc prints nothing until asked: the first input waits for quiet alone.
    steps: [
      { wait: { quiet: 300 }, send: '2^64\r' },
      { wait: '18446744073709551616', send: 'quit\r' },
    ],
  },
  {
    name: 'ed',
    command: ['ed', '-p', '* '],
    steps: [
      { wait: '*', send: 'a\rhello ✅\r.\r' },
      { wait: null, send: ',n\r' },
      // `,n` prints "1<TAB>hello ✅": a tab is cursor movement on a screen, so the step waits for new output.
      { wait: null, send: 'Q\r' },
    ],
  },
  {
    name: 'Node.js REPL',
    command: [process.execPath],
    environment: { NODE_REPL_HISTORY: '' },
    steps: [
      { wait: '> ', send: 'process.ver' },
      // Two Tabs typed one after the other list the completions; in one write they are a paste.
      { wait: 'process.ver', keys: ['Tab', 'Tab'] },
      { wait: 'process.versions', send: '\x15.exit\r' },
    ],
  },
  {
    name: 'w3m',
    command: ['w3m', PAGE],
    steps: [
      { wait: 'The end.', send: 'q' },
      { wait: 'exit w3m', send: 'y' },
    ],
  },
  {
    name: 'ncdu',
    command: ['ncdu', '-x', '.'],
    setup: withSample,
    steps: [{ wait: 'Total disk usage', send: 'q' }],
  },
  {
    name: 'git add -p',
    command: ['git', 'add', '-p'],
    setup: gitRepository,
    environment: GIT_ENVIRONMENT,
    steps: [{ wait: 'Stage this hunk', send: 'y' }],
  },
  {
    name: 'tig',
    command: ['tig'],
    setup: gitRepository,
    environment: GIT_ENVIRONMENT,
    steps: [{ wait: 'first commit', send: 'q' }],
  },
  {
    name: 'ssh-keygen',
    command: ['ssh-keygen', '-t', 'ed25519', '-C', 'fidelity', '-f', 'key'],
    // The key and its picture are random; the prompts before them are what is compared.
    steps: [
      { wait: 'Enter passphrase', send: '\r' },
      { wait: 'same passphrase', send: '\r' },
    ],
  },
  { name: 'top', command: ['top'], live: true, steps: [{ wait: 'PID', send: 'q' }] },
  {
    name: 'man',
    command: ['man', 'ls'],
    environment: { MANPAGER: 'less', MANWIDTH: null },
    steps: [{ wait: 'NAME', send: 'q' }],
  },
  {
    name: 'ranger',
    command: ['ranger', '.'],
    setup: withSample,
    steps: [{ wait: 'sample.txt', send: 'q' }],
  },
  {
    name: 'nnn',
    command: ['nnn', '.'],
    setup: withSample,
    steps: [{ wait: 'sample.txt', send: 'q' }],
  },
  {
    name: 'emacs',
    command: ['emacs', '-nw', '-Q', 'sample.txt'],
    setup: withSample,
    steps: [{ wait: 'fidelity sample', send: '\x18\x03' }],
  },
  {
    name: 'gdb',
    command: ['gdb', '-q', '-nx'],
    environment: { DEBUGINFOD_URLS: '' },
    steps: [
      { wait: '(gdb)', send: 'print 6 * 7\r' },
      { wait: '$1 = 42', send: 'quit\r' },
    ],
  },
  {
    name: 'curses program',
    command: ['/usr/bin/python3', CURSES_DEMO],
    steps: [{ wait: 'press any key', send: 'q' }],
  },
  {
    name: 'tmux inside',
    command: [
      'tmux',
      '-L',
      'rea-fidelity-inner',
      '-f',
      '/dev/null',
      'new-session',
      "printf 'inside tmux ✅ 中文\\n'; read line",
      ';',
      'set',
      '-g',
      'status',
      'off',
    ],
    steps: [{ wait: 'inside tmux', send: '\r' }],
  },
  {
    name: 'script inside',
    command: ['script', '-q', '-c', "printf 'inside script ✅\\n'; read line", '/dev/null'],
    steps: [{ wait: 'inside script', send: '\r' }],
  },
  {
    name: 'neovim',
    command: ['nvim', '-u', 'NONE', '-i', 'NONE', '-n', 'sample.txt'],
    setup: withSample,
    steps: [{ wait: 'fidelity sample', send: ':q!\r' }],
  },
  {
    name: 'ptpython',
    command: ['ptpython'],
    steps: [
      { wait: '>>>', send: 'print(6 * 7)\r' },
      { wait: '42', send: 'exit()\r' },
    ],
  },
  {
    name: 'fish',
    command: ['fish', '--no-config', '-i'],
    steps: [
      // fish's default prompt ends in ">" for a user and "#" for root, after the folder: any first output.
      { wait: null, send: "printf '%s\\n' 'hello ✅'\r" },
      { wait: 'hello ✅', send: 'exit\r' },
    ],
  },
  {
    name: 'kakoune',
    command: ['kak', '-n', 'sample.txt'],
    setup: withSample,
    steps: [{ wait: 'fidelity sample', send: ':q!\r' }],
  },
  {
    name: 'micro',
    command: ['micro', 'sample.txt'],
    setup: withSample,
    steps: [{ wait: 'fidelity sample', send: '\x11' }],
  },
]
