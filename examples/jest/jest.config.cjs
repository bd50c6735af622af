// A user's Jest config: REA's matchers come from setupFilesAfterEnv.
const path = require('node:path')

module.exports = {
  testEnvironment: 'node',
  setupFilesAfterEnv: ['rea-capture/jest'],
  transform: { '^.+\\.ts$': '@swc/jest' },
  testMatch: ['**/*.test.ts'],
  testTimeout: 30_000,
  // Only because this example lives inside the rea repository: an installed rea-capture needs no mapping.
  moduleNameMapper: { '^rea-capture/jest$': path.join(__dirname, '../../dist/jest.cjs') },
}
