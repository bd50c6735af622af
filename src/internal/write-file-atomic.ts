import { randomBytes } from 'node:crypto'
import {
  closeSync,
  fchmodSync,
  fchownSync,
  fsyncSync,
  lstatSync,
  openSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
import path from 'node:path'

/** How a file is written: replaced whole through a temporary sibling, or written in place (not a regular file). */
type WritePlan =
  | { readonly kind: 'direct'; readonly target: string }
  | { readonly kind: 'replace'; readonly target: string; readonly keep: KeptAttributes | null }

/** What a replaced file keeps of the one it replaces. */
interface KeptAttributes {
  readonly mode: number
  readonly uid: number
  readonly gid: number
}

/** Links followed at most, as the kernel's own limit (ELOOP beyond it). */
const MAX_LINKS = 40

/**
 * Writes `data` to `file` whole or not at all: into a temporary file in the same folder, flushed, then renamed
 * over the target, so a reader, a crash or a SIGKILL finds the old file or the new one, never a part. A symlink
 * is resolved first (the file it names is replaced, the link stays); a replaced file keeps its mode (and its
 * owner where the operating system allows). A FIFO, a device or a socket is no file to replace: it is written
 * directly, as `--output /dev/stdout` expects. A temporary file left by a killed writer is named
 * `.<name>.<random>.rea-tmp`.
 *
 * @example
 * writeFileAtomicSync('capture.json', serializeEvidence(evidence))
 */
export function writeFileAtomicSync(file: string, data: string | Uint8Array): void {
  const plan = planWrite(file)
  if (plan.kind === 'direct') {
    writeFileSync(plan.target, data)
    return
  }
  const temporary = temporaryName(plan.target)
  const fd = openSync(temporary, 'wx', plan.keep?.mode ?? 0o666)
  try {
    try {
      const bytes = typeof data === 'string' ? Buffer.from(data) : data
      for (let written = 0; written < bytes.byteLength;) {
        written += writeSync(fd, bytes, written, bytes.byteLength - written)
      }
      keepAttributes(fd, plan.keep)
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    renameSync(temporary, plan.target)
  } catch (error) {
    rmSync(temporary, { force: true })
    throw error
  }
}

/** {@link writeFileAtomicSync} without blocking the event loop. */
export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  // Loaded here, not with the module: a CLI capture writes synchronously and need not load node:fs/promises.
  const { open, rename, rm } = await import('node:fs/promises')
  const plan = planWrite(file)
  if (plan.kind === 'direct') {
    const handle = await open(plan.target, 'w')
    try {
      await handle.writeFile(data)
    } finally {
      await handle.close()
    }
    return
  }
  const temporary = temporaryName(plan.target)
  const handle = await open(temporary, 'wx', plan.keep?.mode ?? 0o666)
  try {
    try {
      await handle.writeFile(data)
      keepAttributes(handle.fd, plan.keep)
      await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(temporary, plan.target)
  } catch (error) {
    await rm(temporary, { force: true })
    throw error
  }
}

function planWrite(file: string): WritePlan {
  const target = resolveLinks(path.resolve(file))
  let stats
  try {
    stats = statSync(target)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return { kind: 'replace', target, keep: null }
    }
    throw error
  }
  if (!stats.isFile()) {
    // A directory fails here as writeFile would; a FIFO, device or socket takes the bytes as they come.
    return { kind: 'direct', target }
  }
  return { kind: 'replace', target, keep: { mode: stats.mode & 0o7777, uid: stats.uid, gid: stats.gid } }
}

/**
 * The path a write through `file` lands on: the real path of an existing file, else (a dangling symlink, or a
 * file not made yet) the end of its chain of links, so the link is kept and its target created.
 */
function resolveLinks(file: string): string {
  try {
    return realpathSync(file)
  } catch {
    // Not there (yet): follow what links there are by hand.
  }
  let current = file
  for (let hops = 0; hops < MAX_LINKS; hops++) {
    let isLink: boolean
    try {
      isLink = lstatSync(current).isSymbolicLink()
    } catch {
      // The path itself does not exist: it is created where it is named, in its real folder.
      return path.join(realFolder(path.dirname(current)), path.basename(current))
    }
    if (!isLink) {
      return current
    }
    current = path.resolve(path.dirname(current), readlinkSync(current))
  }
  return current
}

function realFolder(folder: string): string {
  try {
    return realpathSync(folder)
  } catch {
    // The folder is missing: the write fails on it with ENOENT, naming the path as given.
    return folder
  }
}

function temporaryName(target: string): string {
  return path.join(
    path.dirname(target),
    `.${path.basename(target)}.${randomBytes(6).toString('hex')}.rea-tmp`,
  )
}

/** The mode exactly (the umask narrowed the one open used) and, where allowed, the owner. */
function keepAttributes(fd: number, keep: KeptAttributes | null): void {
  if (keep === null) {
    return
  }
  fchmodSync(fd, keep.mode)
  try {
    fchownSync(fd, keep.uid, keep.gid)
  } catch {
    // Only root may give a file away: an unprivileged writer's replacement is its own, as any new file is.
  }
}
