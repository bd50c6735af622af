import type { CommandTable } from '../command-table.js'

export const RECORD = {
  name: 'record',
  summary: 'Record a scenario by using the program in your terminal (see docs/record.md)',
  docs: 'docs/record.md',
  positionalsAfterDoubleDash: true,
  positionals: [
    { name: 'executable', description: 'The program to run and record.' },
    { name: 'arguments', optional: true, variadic: true, description: 'Its arguments.' },
  ],
  options: [
    {
      kind: 'value',
      name: 'output',
      short: 'o',
      value: '<scenario.json>',
      defaultText: '<program>.scenario.json in the current directory, numbered when it exists',
      description: 'Where the scenario goes; the name is printed.',
      example: 'rea record -o signup.scenario.json -- node signup.mjs',
    },
    {
      kind: 'value',
      name: 'test',
      value: '<file>',
      defaultText: 'no test file',
      description: 'Also write a test that captures the scenario and checks it with toMatchCapture().',
      example: 'rea record --test signup.test.mjs -- node signup.mjs',
    },
    {
      kind: 'value',
      name: 'runner',
      choices: ['vitest', 'jest'],
      // Not supplied by the parser: given without --test, it is refused.
      defaultText: 'vitest',
      description: 'The test runner the --test file is written for (only with --test).',
      example: 'rea record --test signup.test.js --runner jest -- node signup.mjs',
    },
    {
      kind: 'value',
      name: 'evidence',
      value: '<capture.json>',
      defaultText: 'no replay',
      description:
        'Replay the scenario once, write its Evidence here, and exit 1 if its final screen differs.',
      example: 'rea record --evidence signup.capture.json -- node signup.mjs',
    },
    {
      kind: 'value',
      name: 'verify',
      value: '<n>',
      defaultText: 'no check',
      description:
        'Replay the scenario n times (2 to 50), name what varies and propose a rule; exit 1 until replays agree.',
      example: 'rea record --verify 3 -- node signup.mjs',
    },
    {
      kind: 'value',
      name: 'secret',
      value: '<prompt text|/regex/>',
      repeatable: true,
      defaultText: 'judged from the screen',
      description: 'Treat the field after a prompt matching this as secret (repeatable).',
      example: "rea record --secret 'Access code' -- node signup.mjs",
    },
    {
      kind: 'value',
      name: 'not-secret',
      value: '<prompt text|/regex/>',
      repeatable: true,
      defaultText: 'judged from the screen',
      description: 'Keep the field after a prompt matching this in clear: a false alarm (repeatable).',
      example: "rea record --not-secret '/^Key name/' -- node signup.mjs",
    },
    {
      kind: 'flag',
      name: 'dry-run',
      description: 'Print the scenario (and the test) instead of writing them.',
      example: 'rea record --dry-run -- node signup.mjs',
    },
    {
      kind: 'flag',
      name: 'test-environment',
      description: "Record in the test plugin's environment without writing a test.",
      example: 'rea record --test-environment -- node signup.mjs',
    },
  ],
} as const satisfies CommandTable
