import { execFileSync } from 'node:child_process'
import { closeSync, mkdirSync, openSync, ftruncateSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import path from 'node:path'

/** Paths that are not regular files, or too large, for input-file tests; `close()` stops the socket. */
export interface SpecialFiles {
  readonly cases: readonly (readonly [kind: string, file: string, message: string])[]
  close(): Promise<void>
}

/**
 * Creates, in `directory`, a FIFO nobody writes to, a listening Unix socket, a directory and a sparse file of
 * `oversizedBytes` (no disk space used), and names /dev/zero as a character device that never ends. Each case
 * carries the message REA must give for it.
 */
export async function createSpecialFiles(directory: string, oversizedBytes: number): Promise<SpecialFiles> {
  const fifo = path.join(directory, 'fifo.json')
  execFileSync('mkfifo', [fifo])
  const socket = path.join(directory, 'socket.json')
  const server: Server = createServer()
  await new Promise<void>((resolve) => server.listen(socket, resolve))
  const folder = path.join(directory, 'folder.json')
  mkdirSync(folder)
  const oversized = path.join(directory, 'oversized.json')
  const fd = openSync(oversized, 'w')
  ftruncateSync(fd, oversizedBytes)
  closeSync(fd)
  return {
    cases: [
      ['a FIFO', fifo, 'is a FIFO (named pipe), not a regular file'],
      ['a socket', socket, 'is a socket, not a regular file'],
      ['a character device', '/dev/zero', 'is a character device, not a regular file'],
      ['a directory', folder, 'is a directory, not a regular file'],
      [
        'an oversized file',
        oversized,
        `is ${oversizedBytes.toLocaleString('en-US')} bytes, over the limit of`,
      ],
    ],
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
