/** Small statistics for noisy machines: medians of per-round values and of per-round ratios. */

/** The median of a list of numbers (mean of the two middle ones for an even count). */
export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** The median of a[i] / b[i], the rounds paired (each pair measured side by side). */
export function medianRatio(a, b) {
  return median(a.map((x, i) => x / b[i]));
}

/** The q-quantile (0..1) of a list, nearest rank. */
export function quantile(values, q) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
}
