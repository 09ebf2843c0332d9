/**
 * The statistics of an experiment (docs/experiments.md "Statistics"): each variant's conversion
 * rate with its 95% interval, B's chance to beat A and the expected loss of either choice
 * (Beta-binomial, flat prior), the sample ratio mismatch check, and whether a verdict may be
 * given yet. Exact closed forms, no sampling, so the desk and `npm run stats` show the same
 * figures for the same counts.
 *
 * Pure arithmetic, no Worker API: the Worker (the desk's results page) and scripts/stats.mjs
 * (through jiti) both load it.
 */

/** One variant's counts: the visitors exposed to it and those of them who converted. */
export interface Arm {
  visitors: number
  conversions: number
}

/** A conversion rate and its 95% interval, each a fraction from 0 to 1. */
export interface RateInterval {
  rate: number
  low: number
  high: number
}

/** The expected loss of choosing each variant, as a fraction of visitors (0.01 = 1 point). */
export interface ExpectedLoss {
  /** E[max(pB − pA, 0)]: what choosing A gives up if B is in fact better */
  ofA: number
  /** E[max(pA − pB, 0)]: what choosing B gives up if A is in fact better */
  ofB: number
}

/** Sample ratio mismatch: Pearson's chi-squared of the visitors against the split. */
export interface Srm {
  chi2: number
  p: number
  /** p below SRM_P: the split is broken, and no verdict can be trusted */
  mismatch: boolean
}

export type Verdict =
  | { kind: 'srm' }
  | {
      kind: 'too_early'
      /** whole days until MIN_DAYS have passed (0 when they have) */
      daysLeft: number
      /** conversions each variant still needs to reach MIN_CONVERSIONS (0 when it has) */
      conversionsMissing: { A: number; B: number }
    }
  | {
      kind: 'ready'
      /** the variant more likely to be better (A on an exact tie) */
      leader: 'A' | 'B'
      /** the leader's chance to beat the other */
      chanceToBeat: number
    }

export interface Analysis {
  A: Arm & { interval: RateInterval | null }
  B: Arm & { interval: RateInterval | null }
  /** days since the start, with their fraction */
  days: number
  /** B's chance to beat A */
  chanceToBeat: number
  expectedLoss: ExpectedLoss
  srm: Srm
  verdict: Verdict
}

/** The p-value below which the split is taken as broken (GrowthBook's threshold). */
export const SRM_P = 0.001
/** No verdict before a full week has passed (each weekday seen once)... */
export const MIN_DAYS = 7
/** ...nor before each variant has this many conversions. */
export const MIN_CONVERSIONS = 100

/** The standard normal's 97.5th percentile: a two-sided 95% interval. */
const Z95 = 1.959963984540054
const DAY_MS = 86_400_000

/** Whole counts, conversions no more than visitors (a sampled sum could say otherwise). */
function countsOf(arm: Arm) {
  const whole = (n: number) => (Number.isFinite(n) ? Math.max(0, Math.round(n)) : 0)
  const n = whole(arm.visitors)
  return { n, x: Math.min(n, whole(arm.conversions)) }
}

/**
 * The Wilson score interval (Wilson 1927): unlike rate ± 1.96 standard errors, it stays within
 * 0 and 1 and holds its 95% with few conversions. Null without visitors: there is no rate.
 */
export function rateInterval(arm: Arm): RateInterval | null {
  const { n, x } = countsOf(arm)
  if (n === 0) return null
  const rate = x / n
  const z2 = Z95 * Z95
  const scale = 1 + z2 / n
  const centre = (rate + z2 / (2 * n)) / scale
  const half = (Z95 / scale) * Math.sqrt((rate * (1 - rate)) / n + z2 / (4 * n * n))
  return { rate, low: Math.max(0, centre - half), high: Math.min(1, centre + half) }
}

/** Lanczos's approximation (g = 7, 9 terms) of ln Γ(x), x ≥ 0.5; relative error about 1e-15. */
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
  -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
  1.5056327351493116e-7,
]
const HALF_LOG_2PI = 0.5 * Math.log(2 * Math.PI)

function logGamma(x: number): number {
  const z = x - 1
  let series = LANCZOS[0]
  for (let i = 1; i < LANCZOS.length; i++) series += LANCZOS[i] / (z + i)
  const t = z + 7.5
  return HALF_LOG_2PI + (z + 0.5) * Math.log(t) - t + Math.log(series)
}

/** Stirling's series after its leading terms: ln Γ(x) − ((x − ½) ln x − x + ½ ln 2π), x ≥ 10. */
function stirlingTail(x: number): number {
  const r = 1 / x
  const r2 = r * r
  return (
    r *
    (1 / 12 -
      r2 * (1 / 360 - r2 * (1 / 1260 - r2 * (1 / 1680 - r2 * (1 / 1188 - r2 * (691 / 360360))))))
  )
}

/**
 * ln B(a, b). With both arguments large, Stirling's form with the ln x − x terms cancelled
 * by hand: three log-gammas of a million each would lose seven digits to their difference.
 */
function logBeta(a: number, b: number): number {
  if (a < 10 || b < 10) return logGamma(a) + logGamma(b) - logGamma(a + b)
  const s = a + b
  return (
    HALF_LOG_2PI +
    (a - 0.5) * Math.log(a / s) +
    (b - 0.5) * Math.log(b / s) -
    0.5 * Math.log(s) +
    stirlingTail(a) +
    stirlingTail(b) -
    stirlingTail(s)
  )
}

/**
 * P(X > Y) for X ~ Beta(aX, bX) and Y ~ Beta(aY, bY), aX a whole number: Evan Miller's
 * "Formulas for Bayesian A/B testing",
 *   Σ_{i=0}^{aX−1} B(aY + i, bY + bX) / ((bX + i) B(1 + i, bX) B(aY, bY)).
 * Each term is the one before times
 *   r(i) = (aY + i)(bX + i) / ((aY + bY + bX + i)(1 + i)),
 * which is above 1 up to one index and below it after: the terms rise to one largest and fall.
 * So only the largest is computed with log-betas, and the others from it by r, outwards both
 * ways, until what is left (fewer terms than remain, each smaller than the last) cannot move
 * the sum: tens of thousands of steps at most for a million visitors, each a few
 * multiplications.
 */
function chanceGreater(aY: number, bY: number, aX: number, bX: number): number {
  const ratio = (i: number) => ((aY + i) * (bX + i)) / ((aY + bY + bX + i) * (1 + i))
  const turn = (aY * bX - aY - bY - bX) / (bY + 1)
  const top = Math.min(aX - 1, Math.max(0, Math.floor(turn) + 1))
  // the sum relative to the largest term
  let sum = 1
  let term = 1
  for (let i = top; i < aX - 1; i++) {
    term *= ratio(i)
    sum += term
    if (term * (aX - 2 - i) < sum * 1e-17) break
  }
  term = 1
  for (let i = top - 1; i >= 0; i--) {
    term /= ratio(i)
    sum += term
    if (term * i < sum * 1e-17) break
  }
  const logTop =
    logBeta(aY + top, bY + bX) - Math.log(bX + top) - logBeta(1 + top, bX) - logBeta(aY, bY)
  return Math.min(1, Math.max(0, Math.exp(logTop) * sum))
}

/**
 * P(pB > pA) for pA ~ Beta(aA, bA), pB ~ Beta(aB, bB), summed over the least of the four
 * parameters: P(pB > pA) = 1 − P(pA > pB), and with q = 1 − p ~ Beta(b, a),
 * P(pB > pA) = P(qA > qB). The loop is never longer than the fewer of the conversions and the
 * non-conversions of the smaller arm.
 */
function chanceBeta(aA: number, bA: number, aB: number, bB: number): number {
  const least = Math.min(aA, bA, aB, bB)
  if (least === aB) return chanceGreater(aA, bA, aB, bB)
  if (least === aA) return 1 - chanceGreater(aB, bB, aA, bA)
  if (least === bA) return chanceGreater(bB, aB, bA, aA)
  return 1 - chanceGreater(bA, aA, bB, aB)
}

/** The posterior of a rate with a flat prior: Beta(1 + conversions, 1 + non-conversions). */
function posterior(arm: Arm) {
  const { n, x } = countsOf(arm)
  return { a: 1 + x, b: 1 + n - x }
}

/** B's chance to beat A: P(pB > pA) with independent flat-prior Beta posteriors. Exact. */
export function chanceToBeat(a: Arm, b: Arm): number {
  const A = posterior(a)
  const B = posterior(b)
  return chanceBeta(A.a, A.b, B.a, B.b)
}

/**
 * The expected loss of each choice (Chris Stucchio, "Bayesian A/B testing at VWO", 2015):
 *   E[max(pB − pA, 0)] = mB · h(aA, bA, aB + 1, bB) − mA · h(aA + 1, bA, aB, bB)
 * where m = a / (a + b) is a posterior's mean and h(…) = P(pB > pA) with those parameters
 * (E[pB; pB > pA] = mB · P(p'B > pA), p'B ~ Beta(aB + 1, bB)); the other way round likewise.
 * A difference of two near numbers: exact to about 1e-12 absolute, and never below zero.
 */
export function expectedLoss(a: Arm, b: Arm): ExpectedLoss {
  const A = posterior(a)
  const B = posterior(b)
  const mA = A.a / (A.a + A.b)
  const mB = B.a / (B.a + B.b)
  const ofA = mB * chanceBeta(A.a, A.b, B.a + 1, B.b) - mA * chanceBeta(A.a + 1, A.b, B.a, B.b)
  const ofB = mA * chanceBeta(B.a, B.b, A.a + 1, A.b) - mB * chanceBeta(B.a + 1, B.b, A.a, A.b)
  return { ofA: Math.max(0, ofA), ofB: Math.max(0, ofB) }
}

/**
 * erfc(x) for x ≥ 0, to about 1e-14 relative: below 2 as 1 − erf(x), erf by its series of
 * positive terms (Abramowitz and Stegun 7.1.6),
 *   erf(x) = 2/√π · e^(−x²) · Σ 2ⁿ x^(2n+1) / (1·3·…·(2n+1));
 * from 2 on by the continued fraction (A&S 7.1.14; Numerical Recipes' Lentz's method),
 *   erfc(x) = e^(−x²)/√π · 1/(x + ½/(x + 1/(x + (3/2)/(x + 2/(x + …))))),
 * which keeps its relative precision far into the tail (p of 1e-74 and beyond).
 */
function erfc(x: number): number {
  if (x < 2) {
    let term = x
    let sum = x
    for (let n = 1; term > sum * 1e-17; n++) {
      term *= (2 * x * x) / (2 * n + 1)
      sum += term
    }
    return 1 - (2 / Math.sqrt(Math.PI)) * Math.exp(-x * x) * sum
  }
  const tiny = 1e-300
  let f = x
  let c = x
  let d = 0
  for (let k = 1; k < 500; k++) {
    const a = k / 2
    d = x + a * d
    d = 1 / (Math.abs(d) < tiny ? tiny : d)
    c = x + a / c
    if (Math.abs(c) < tiny) c = tiny
    const delta = c * d
    f *= delta
    if (Math.abs(delta - 1) < 1e-16) break
  }
  return Math.exp(-x * x) / Math.sqrt(Math.PI) / f
}

/**
 * Sample ratio mismatch: Pearson's chi-squared of the visitors of A and B against the split
 * (splitB percent to B), one degree of freedom, so p = erfc(√(χ²/2)). Below SRM_P the counts
 * are very unlikely under the split: assignment or counting is broken (a redirect losing one
 * variant's visitors, a crawler in one arm), and the rates cannot be compared.
 */
export function srm(visitors: [number, number], splitB: number): Srm {
  if (!(splitB >= 1 && splitB <= 99)) throw new RangeError(`split ${splitB} is not 1 to 99`)
  const [a, b] = visitors.map((n) => countsOf({ visitors: n, conversions: 0 }).n)
  const n = a + b
  if (n === 0) return { chi2: 0, p: 1, mismatch: false }
  const expectB = (n * splitB) / 100
  const expectA = n - expectB
  const chi2 = (a - expectA) ** 2 / expectA + (b - expectB) ** 2 / expectB
  const p = Math.min(1, erfc(Math.sqrt(chi2 / 2)))
  return { chi2, p, mismatch: p < SRM_P }
}

/**
 * Every figure of an experiment, and the verdict: the SRM warning whenever the split is broken;
 * otherwise none before MIN_DAYS since the start and MIN_CONVERSIONS in each variant (what is
 * missing instead); then the leader and its chance to beat the other.
 */
export function analyse(
  arms: { A: Arm; B: Arm },
  splitB: number,
  startedAtMs: number,
  nowMs: number,
): Analysis {
  const { A, B } = arms
  const days = Math.max(0, (nowMs - startedAtMs) / DAY_MS)
  const chance = chanceToBeat(A, B)
  const ratio = srm([A.visitors, B.visitors], splitB)
  const conversionsA = countsOf(A).x
  const conversionsB = countsOf(B).x
  let verdict: Verdict
  if (ratio.mismatch) verdict = { kind: 'srm' }
  else if (days < MIN_DAYS || conversionsA < MIN_CONVERSIONS || conversionsB < MIN_CONVERSIONS)
    verdict = {
      kind: 'too_early',
      daysLeft: days < MIN_DAYS ? Math.ceil(MIN_DAYS - days) : 0,
      conversionsMissing: {
        A: Math.max(0, MIN_CONVERSIONS - conversionsA),
        B: Math.max(0, MIN_CONVERSIONS - conversionsB),
      },
    }
  else
    verdict =
      // (an exact tie of rates goes to A, the text the site has: the sum's rounding may not)
      chance > 0.5 && A.conversions * B.visitors !== B.conversions * A.visitors
        ? { kind: 'ready', leader: 'B', chanceToBeat: chance }
        : { kind: 'ready', leader: 'A', chanceToBeat: chanceToBeat(B, A) }
  return {
    A: { visitors: A.visitors, conversions: A.conversions, interval: rateInterval(A) },
    B: { visitors: B.visitors, conversions: B.conversions, interval: rateInterval(B) },
    days,
    chanceToBeat: chance,
    expectedLoss: expectedLoss(A, B),
    srm: ratio,
    verdict,
  }
}
