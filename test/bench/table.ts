// The results table: one row per figure (measure, ours, baseline, ratio, target, ok), printed as markdown.

export type Row = [
  measure: string,
  ours: string,
  baseline: string,
  ratio: string,
  target: string,
  ok: string,
];

export const int = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
export const ms = (value: number) => `${value.toFixed(1)} ms`;
export const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : 'n/a');
export const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;
export const verdict = (ok: boolean) => (ok ? 'yes' : '**NO**');

export function table(body: Row[]): string {
  const header: Row = ['measure', 'ours', 'baseline', 'ratio', 'target', 'ok'];
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...body.map(line)].join('\n');
}
