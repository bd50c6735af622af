// Builds REA's Linux PTY spawner (pty-spawn.c) and the supervisor's waiter (supervisor-waiter.c) when the package is
// installed. A build that fails does not fail the install: captures then start their commands through node-pty, as
// they do on macOS, and the supervisor is a Node.js process from the start (docs/platforms.md).
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

if (process.platform !== 'linux') {
  process.exit(0)
}
const here = path.dirname(fileURLToPath(import.meta.url))
// npm names its own node-gyp for install scripts; outside npm, one on PATH.
const nodeGyp = process.env.npm_config_node_gyp
const [command, ...prefix] = nodeGyp ? [process.execPath, nodeGyp] : ['node-gyp']
const result = spawnSync(command, [...prefix, 'rebuild', `--directory=${here}`, '--loglevel=warn'], {
  stdio: 'inherit',
})
if (result.status !== 0) {
  const why = result.error ? result.error.message : `node-gyp exited with ${result.status ?? result.signal}`
  console.warn(
    `rea: the native PTY spawner was not built (${why}). Captures will start commands through node-pty, ` +
      'which is slower in large processes, and its supervisor runs as a Node.js process all along. Run ' +
      '`npm rebuild rea-capture` once a C compiler, make and python3 are installed.',
  )
}
