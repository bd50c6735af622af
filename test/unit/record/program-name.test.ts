import { describe, expect, test } from 'vitest'
import { programName } from '../../../src/record/program-name.js'

describe('programName', () => {
  test.for([
    [['node', './signup.mjs'], 'signup'],
    [['/usr/bin/node', '--import', 'tsx', 'src/signup.ts', '--fast'], 'signup'],
    [['python3', '-u', 'tools/setup.py'], 'setup'],
    [['python3.12', '-m', 'http.server'], 'http.server'],
    [['env', 'DEBUG=1', '-u', 'CI', 'node', 'cli.js'], 'cli'],
    [['bash', './read-secret.sh'], 'read-secret'],
    [['sh', '-c', 'read x'], 'sh'],
    [['node', '-e', 'console.log(1)'], 'node'],
    [['npx', 'tsx', 'wizard.ts'], 'wizard'],
    [['deno', 'run', '-A', 'main.ts'], 'main'],
    [['./bin/tool.sh'], 'tool'],
    [['ssh-keygen', '-t', 'ed25519'], 'ssh-keygen'],
  ] as const)('names %j %s', ([command, name]) => {
    const [executable, ...args] = command
    expect(programName(executable, args)).toBe(name)
  })
})
