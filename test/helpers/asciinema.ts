import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

/** Why the real player cannot run here, or null when `asciinema` and `script` are installed. */
export function asciinemaUnavailable(): string | null {
  for (const tool of ['asciinema', 'script']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) {
      return `${tool} is not installed (.ci/run installs it with apt-get)`
    }
  }
  return null
}

/**
 * What `asciinema cat` prints for a recording, byte for byte. asciinema 2.x opens /dev/tty, so it runs under
 * `script` for a terminal, while its stdout goes straight to a file: the PTY's output translation never
 * touches the bytes compared.
 */
export function asciinemaCat(castFile: string): Buffer {
  const directory = mkdtempSync(path.join(tmpdir(), 'rea-asciinema-'))
  const output = path.join(directory, 'cat.out')
  try {
    execFileSync('script', ['-qc', `asciinema cat '${castFile}' > '${output}'`, '/dev/null'], {
      env: { ...process.env, LC_ALL: 'C.UTF-8', PYTHONIOENCODING: 'utf-8' },
      stdio: 'ignore',
      timeout: 60_000,
    })
    return readFileSync(output)
  } finally {
    rmSync(directory, { recursive: true, force: true })
  }
}
