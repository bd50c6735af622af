/** The package version, recorded in every Evidence document; a unit test keeps it equal to package.json. */
export const REA_VERSION = '0.1.0'
