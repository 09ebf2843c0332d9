import { describe, expect, it } from 'vitest'
import {
  analyse,
  chanceToBeat,
  expectedLoss,
  MIN_CONVERSIONS,
  MIN_DAYS,
  rateInterval,
  srm,
  SRM_P,
  type Arm,
} from '../../worker/experiments/stats'

// The experiments' statistics (worker/experiments/stats.ts) against values computed
// independently with scipy 1.17.1 (Python 3), by numerical integration of the Beta posteriors
// rather than the closed forms the module uses. The exact Python, each case's line printed by it:
//
//   from scipy import stats, integrate
//   def post(x, n): return stats.beta(1 + x, 1 + n - x)          # flat prior
//   def refs(xa, na, xb, nb):
//       A, B = post(xa, na), post(xb, nb)
//       Bp = stats.beta(2 + xb, 1 + nb - xb)                      # B tilted by p
//       mB = B.mean(); sd = max(A.std(), B.std())
//       lo = max(0.0, min(A.mean(), B.mean()) - 40 * sd)
//       hi = min(1.0, max(A.mean(), B.mean()) + 40 * sd)
//       kw = dict(epsabs=1e-15, epsrel=1e-13, limit=1000, points=[A.mean(), B.mean()])
//       p = integrate.quad(lambda x: A.pdf(x) * B.sf(x), lo, hi, **kw)[0]         # P(pB > pA)
//       ofB = integrate.quad(lambda x: A.pdf(x) * (x * B.cdf(x) - mB * Bp.cdf(x)), lo, hi, **kw)[0]
//       ofA = integrate.quad(lambda x: A.pdf(x) * (mB * Bp.sf(x) - x * B.sf(x)), lo, hi, **kw)[0]
//       return p, ofB, ofA                    # ofB = E[max(pA - pB, 0)], ofA = E[max(pB - pA, 0)]
//
// The 20/100 against 30/100 case agrees with a plain double integral of the definition
// (integrate.dblquad(lambda y, x: A.pdf(x) * B.pdf(y), 0, 1, lambda x: x, 1) = 0.947603103352368,
// and likewise (x - y) over y < x = 0.0013455972243734452), and the 1,000,000-visitor cases
// agree within 1e-13 with Evan Miller's closed form summed by mpmath 1.3 at 40 digits.

const arm = (conversions: number, visitors: number): Arm => ({ visitors, conversions })

/** [A, B, P(pB > pA), E[max(pA - pB, 0)], E[max(pB - pA, 0)]] */
const BAYES: [Arm, Arm, number, number, number][] = [
  // small
  [arm(20, 100), arm(30, 100), 0.9476031033523693, 0.0013455972243734452, 0.09938481291064796],
  // medium
  [
    arm(120, 1000),
    arm(150, 1000),
    0.9750678368121443,
    0.00014417785511182794,
    0.030084297615590894,
  ],
  // thousands of visitors
  [
    arm(480, 10000),
    arm(530, 10000),
    0.9467384943816547,
    6.968964551991504e-5,
    0.005068689845479937,
  ],
  // even
  [arm(50, 500), arm(50, 500), 0.5, 0.007588679092377233, 0.007588679092377248],
  // A far ahead
  [arm(90, 100), arm(10, 100), 1.0380543472860303e-33, 0.784313725490196, 6.355781210202988e-36],
  // nobody yet: two flat priors
  [arm(0, 0), arm(0, 0), 0.5, 0.16666666666666663, 0.16666666666666663],
  // no conversion at all in B
  [arm(3, 40), arm(0, 25), 0.13212347354138396, 0.06280666947918924, 0.00460561127813103],
  // a million visitors each
  [
    arm(50000, 1_000_000),
    arm(50400, 1_000_000),
    0.902394113037438,
    1.4199973101895313e-5,
    0.0004141991731035559,
  ],
  [
    arm(500000, 1_000_000),
    arm(501000, 1_000_000),
    0.9213504051227633,
    2.512722489893254e-5,
    0.0010251252249036487,
  ],
]

const label = (a: Arm, b: Arm) =>
  `${a.conversions}/${a.visitors} against ${b.conversions}/${b.visitors}`

describe("B's chance to beat A", () => {
  for (const [a, b, p] of BAYES)
    it(label(a, b), () => {
      expect(Math.abs(chanceToBeat(a, b) - p)).toBeLessThan(1e-9)
      // and A's chance to beat B is the rest
      expect(Math.abs(chanceToBeat(b, a) - (1 - p))).toBeLessThan(1e-9)
    })

  it('is 1/2 exactly for two equal arms', () => {
    expect(chanceToBeat(arm(50, 500), arm(50, 500))).toBeCloseTo(0.5, 12)
    expect(chanceToBeat(arm(0, 0), arm(0, 0))).toBeCloseTo(0.5, 12)
  })

  it('takes well under a second for a million visitors a side (a hang guard, not a benchmark)', () => {
    const start = performance.now()
    for (let i = 0; i < 10; i++) chanceToBeat(arm(500000, 1_000_000), arm(501000 + i, 1_000_000))
    expect(performance.now() - start).toBeLessThan(1000)
  })
})

describe('expected loss', () => {
  for (const [a, b, , ofB, ofA] of BAYES)
    it(label(a, b), () => {
      const loss = expectedLoss(a, b)
      // absolute: the desk shows it as a percentage of visitors, with two or three digits
      expect(Math.abs(loss.ofB - ofB)).toBeLessThan(1e-9)
      expect(Math.abs(loss.ofA - ofA)).toBeLessThan(1e-9)
      // and relative, where the loss is not vanishingly small
      if (ofB > 1e-6) expect(Math.abs(loss.ofB / ofB - 1)).toBeLessThan(1e-6)
      if (ofA > 1e-6) expect(Math.abs(loss.ofA / ofA - 1)).toBeLessThan(1e-6)
      expect(loss.ofA).toBeGreaterThanOrEqual(0)
      expect(loss.ofB).toBeGreaterThanOrEqual(0)
    })
})

describe('the 95% interval of a rate (Wilson score)', () => {
  // scipy: stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method='wilson')
  const WILSON: [number, number, number, number][] = [
    [20, 100, 0.1333669333310325, 0.2888291655931589],
    [0, 10, 0, 0.27753279986288926],
    [10, 10, 0.7224672001371109, 1],
    [1234, 56789, 0.020562371863068946, 0.022961449015183377],
    [1, 1, 0.20654931437723745, 1],
  ]
  for (const [k, n, low, high] of WILSON)
    it(`${k} of ${n}`, () => {
      const interval = rateInterval(arm(k, n))
      expect(interval).not.toBeNull()
      expect(interval!.rate).toBe(k / n)
      expect(interval!.low).toBeCloseTo(low, 12)
      expect(interval!.high).toBeCloseTo(high, 12)
    })

  it('has no rate without visitors', () => {
    expect(rateInterval(arm(0, 0))).toBeNull()
  })
})

describe('sample ratio mismatch (chi-squared, one degree of freedom)', () => {
  // scipy: stats.chisquare(obs, f_exp=[n * (100 - split) / 100, n * split / 100]) and
  // stats.chi2.sf(statistic, 1), which agree to the last digit
  const SRM: [[number, number], number, number, number, boolean][] = [
    [[5000, 5400], 50, 15.384615384615385, 8.769942375590228e-5, true],
    [[5000, 5150], 50, 2.2167487684729066, 0.13652028764557886, false],
    [[8000, 2100], 20, 3.9603960396039604, 0.04658274252301569, false],
    [[9000, 1120], 10, 12.806324110671936, 0.00034544963682534496, true],
    [[5000, 7000], 50, 333.3333333333333, 1.80631623309412e-74, true],
    [[1, 0], 50, 1, 0.31731050786291115, false],
  ]
  for (const [visitors, split, chi2, p, mismatch] of SRM)
    it(`${visitors[0]} against ${visitors[1]} at ${split}% to B`, () => {
      const result = srm(visitors, split)
      expect(result.chi2).toBeCloseTo(chi2, 9)
      expect(Math.abs(result.p / p - 1)).toBeLessThan(1e-10)
      expect(result.mismatch).toBe(mismatch)
    })

  it('is no mismatch before anyone came', () => {
    expect(srm([0, 0], 50)).toEqual({ chi2: 0, p: 1, mismatch: false })
  })

  it('flags below p = 0.001', () => {
    expect(SRM_P).toBe(0.001)
  })
})

describe('the verdict', () => {
  const DAY = 86_400_000
  const start = Date.UTC(2026, 0, 1)
  const enough = { A: arm(MIN_CONVERSIONS, 2000), B: arm(MIN_CONVERSIONS + 40, 2000) }

  it('is ready at 7 days and 100 conversions a side, B leading', () => {
    expect(MIN_DAYS).toBe(7)
    expect(MIN_CONVERSIONS).toBe(100)
    const result = analyse(enough, 50, start, start + 7 * DAY)
    expect(result.verdict).toEqual({
      kind: 'ready',
      leader: 'B',
      chanceToBeat: chanceToBeat(enough.A, enough.B),
    })
    expect(result.days).toBe(7)
    expect(result.chanceToBeat).toBe(chanceToBeat(enough.A, enough.B))
    expect(result.expectedLoss).toEqual(expectedLoss(enough.A, enough.B))
    expect(result.A.interval).toEqual(rateInterval(enough.A))
    expect(result.B).toMatchObject({ visitors: 2000, conversions: 140 })
    expect(result.srm.mismatch).toBe(false)
  })

  it("names A the leader with A's own chance when A is ahead", () => {
    const result = analyse({ A: enough.B, B: enough.A }, 50, start, start + 30 * DAY)
    expect(result.verdict).toEqual({
      kind: 'ready',
      leader: 'A',
      chanceToBeat: chanceToBeat(enough.A, enough.B),
    })
  })

  it('is too early a moment before 7 days, and says how long is left', () => {
    const result = analyse(enough, 50, start, start + 6.99 * DAY)
    expect(result.verdict).toEqual({
      kind: 'too_early',
      daysLeft: 1,
      conversionsMissing: { A: 0, B: 0 },
    })
    expect(analyse(enough, 50, start, start + 7 * DAY - 1).verdict.kind).toBe('too_early')
    expect(analyse(enough, 50, start, start).verdict).toMatchObject({ daysLeft: 7 })
    expect(analyse(enough, 50, start, start + 2.5 * DAY).verdict).toMatchObject({ daysLeft: 5 })
  })

  it('is too early with 99 conversions on either side, and says how many are missing', () => {
    const later = start + 20 * DAY
    const A99 = { A: arm(99, 2000), B: arm(140, 2000) }
    expect(analyse(A99, 50, start, later).verdict).toEqual({
      kind: 'too_early',
      daysLeft: 0,
      conversionsMissing: { A: 1, B: 0 },
    })
    const B99 = { A: arm(140, 2000), B: arm(99, 2000) }
    expect(analyse(B99, 50, start, later).verdict).toMatchObject({
      conversionsMissing: { A: 0, B: 1 },
    })
    expect(analyse({ A: arm(3, 10), B: arm(0, 12) }, 50, start, start + DAY).verdict).toEqual({
      kind: 'too_early',
      daysLeft: 6,
      conversionsMissing: { A: 97, B: 100 },
    })
    expect(analyse({ A: arm(100, 2000), B: arm(100, 2000) }, 50, start, later).verdict.kind).toBe(
      'ready',
    )
  })

  it('is replaced by the sample ratio warning, early or late', () => {
    const skewed = { A: arm(300, 5000), B: arm(330, 5400) }
    const late = analyse(skewed, 50, start, start + 30 * DAY)
    expect(late.srm.mismatch).toBe(true)
    expect(late.verdict).toEqual({ kind: 'srm' })
    // too early by both rules, still the warning
    const early = analyse({ A: arm(5, 5000), B: arm(6, 5400) }, 50, start, start + DAY)
    expect(early.verdict).toEqual({ kind: 'srm' })
    // the same counts are expected at 52% to B
    expect(analyse(skewed, 52, start, start + 30 * DAY).verdict.kind).toBe('ready')
  })
})
