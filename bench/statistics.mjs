// What every benchmark reports: medians, and ratios taken pair by pair so that drift in the machine's speed
// between rounds affects both sides of a pair alike.

export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

/** The median of `a[i] / b[i]` over pairs measured one right after the other. */
export const medianPairRatio = (a, b) => median(a.map((value, index) => value / b[index]))
