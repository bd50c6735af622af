// Ends a private tmux server the benchmarks started (`tmux -L <name>`), and removes its socket: a server that
// ended on its own (its only pane exited) leaves the socket behind in tmux's folder.
import { spawnSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

export function removeTmuxServer(name) {
  spawnSync('tmux', ['-L', name, '-f', '/dev/null', 'kill-server'], { stdio: 'ignore' })
  const folder = path.join(process.env.TMUX_TMPDIR ?? tmpdir(), `tmux-${process.getuid?.() ?? 0}`)
  rmSync(path.join(folder, name), { force: true })
}
