// A fixed date the program computes: a change of it is a change of behaviour.
console.log(`Release 1.4 ships on ${process.argv[2] ?? '2026-12-31'}`)
