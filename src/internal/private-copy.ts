import { mkdtempSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/**
 * A path for `fileName` in a new directory under the system temporary directory that only this user can
 * enter (mkdtemp creates it with mode 0700): where REA keeps a document it could not deliver as asked, so
 * that a run whose command already had its effects is never lost.
 *
 * @example
 * await writeFile(privateCopyPath('capture.json'), serializeEvidence(evidence))
 */
export function privateCopyPath(fileName: string): string {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'rea-capture-'))
  return path.join(directory, fileName)
}
