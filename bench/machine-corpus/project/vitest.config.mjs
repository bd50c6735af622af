export default { test: { include: ['checks/*.test.mjs'] } }
