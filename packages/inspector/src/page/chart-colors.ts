/** Series colours of the charts: distinct, and ≥ 3:1 against white (non-text contrast). */
export const chartColors = [
  '#0b57d0',
  '#b3261e',
  '#146c2e',
  '#7c4dff',
  '#a15c00',
  '#00677f',
  '#8e24aa',
  '#5d4037',
] as const;
