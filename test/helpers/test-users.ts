import { spawnSync } from 'node:child_process'
import { setTimeout as delay } from 'node:timers/promises'

/** A real account made for a test: its name, and the command prefix that runs a program as it. */
export interface TestUser {
  readonly name: string
  readonly uid: number
}

export type TestUsers = { readonly users: TestUser[] } | { readonly skip: string }

/** useradd takes a lock on /etc/passwd; another test file creating its users at the same time holds it briefly. */
const USERADD_ATTEMPTS = 20
const USERADD_RETRY_MS = 100

/**
 * Creates system accounts (no home, no login shell) named `rea<pid><letter>`, one per letter, for tests that need
 * another user than the one running them; `skip` says why that is not possible here (not root, no useradd).
 * Remove them with {@link removeTestUsers}.
 */
export async function createTestUsers(letters: readonly string[]): Promise<TestUsers> {
  if (process.getuid?.() !== 0) {
    return { skip: 'creating users needs root, and these tests run as a normal user' }
  }
  if (spawnSync('useradd', ['--help'], { stdio: 'ignore' }).status !== 0) {
    return { skip: 'useradd is not available on this host' }
  }
  const users: TestUser[] = []
  for (const letter of letters) {
    const name = `rea${process.pid}${letter}`
    let created = false
    let lastError = ''
    for (let attempt = 0; attempt < USERADD_ATTEMPTS && !created; attempt++) {
      const result = spawnSync(
        'useradd',
        ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', name],
        { encoding: 'utf8' },
      )
      // 9: the name is taken (a run of this pid before); reuse it.
      created = result.status === 0 || result.status === 9
      lastError = result.stderr
      if (!created) {
        await delay(USERADD_RETRY_MS)
      }
    }
    if (!created) {
      removeTestUsers(users)
      return { skip: `useradd ${name} failed: ${lastError.trim()}` }
    }
    const id = spawnSync('id', ['-u', name], { encoding: 'utf8' })
    users.push({ name, uid: Number(id.stdout.trim()) })
  }
  return { users }
}

/** Removes accounts made by {@link createTestUsers}. */
export function removeTestUsers(users: readonly TestUser[]): void {
  for (const user of users) {
    spawnSync('userdel', [user.name], { stdio: 'ignore' })
  }
}

/**
 * The command line that runs `argv` as `user` with an environment of its own (NOTES.md §9): its uid, gid and
 * groups, and only the variables given.
 */
export function asUser(
  user: TestUser,
  environment: Record<string, string>,
  argv: readonly string[],
): string[] {
  return [
    'setpriv',
    '--reuid',
    user.name,
    '--regid',
    user.name,
    '--init-groups',
    'env',
    '-i',
    ...Object.entries(environment).map(([name, value]) => `${name}=${value}`),
    ...argv,
  ]
}
