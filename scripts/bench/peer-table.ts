import { median, type Turns } from './turns.ts';

/**
 * The markdown `npm run bench:peers` prints: the README's table (one row per target, polysite's
 * rows with the ratio the README quotes), the ratios between polysite and its closest peers,
 * then the figures behind them.
 */
export type Measured = {
  /** Requests answered per second of server CPU time (user + system): the figure to compare. */
  perCpuSecond: number;
  requestsPerSecond: number;
  /** Server CPU time during the load as a share of one core: near 100 means the server was the bottleneck. */
  serverCpuPercent: number;
  p50: number;
  p99: number;
  peakRssMb: number;
  coldStartMs: number;
  firstLoadJsKb: number | undefined;
  htmlKb: number;
  non2xx: number;
  errors: number;
  /** Share of CPU 0 (the server's) and CPU 1 (the load generator's) that other processes took during the load; unpinned: undefined. */
  othersCpuPercent: [number, number] | undefined;
};

export type Outcome = { name: string; label: string } & (Measured | { failed: string });

/** Each polysite row's cell quotes its multiple of one peer, as the README does. */
const QUOTED: Record<string, [peer: string, label: string]> = {
  polysite: ['next-prerendered', 'Next prerendered'],
  'polysite-nocache': ['next-dynamic', 'Next dynamic'],
};

const RATIOS: [ours: string, heading: string, [peer: string, label: string][]][] = [
  [
    'polysite',
    'render cache on',
    [
      ['next-prerendered', 'Next prerendered'],
      ['buffer', 'the precomputed buffer'],
      ['buffer-polysite', 'its own answer from a buffer'],
    ],
  ],
  [
    'polysite-nocache',
    'render cache off',
    [
      ['bare-stream', 'bare renderToPipeableStream'],
      ['next-dynamic', 'Next dynamic'],
    ],
  ],
];

/**
 * The ratios the performance targets are stated in (cached vs the precomputed buffer,
 * uncached vs bare React), as [base, other]: a whole `npm run bench:peers` run measures
 * them again in paired turns after the table, since the table's own figures for two
 * targets are measured a minute or more apart.
 */
export const PAIRED_RATIOS: readonly (readonly [base: string, other: string])[] = [
  ['buffer', 'polysite'],
  ['bare-stream', 'polysite-nocache'],
];

export function peerTable(outcomes: Outcome[], options: { heading: string; pairs?: string[] }): string {
  const measured = new Map(outcomes.flatMap((outcome) => ('failed' in outcome ? [] : [[outcome.name, outcome] as const])));
  const ratio = (ours: string, peer: string) => {
    const [a, b] = [measured.get(ours), measured.get(peer)];
    return a && b && b.perCpuSecond > 0 ? a.perCpuSecond / b.perCpuSecond : undefined;
  };

  const lines = [
    options.heading,
    '',
    '| target | req per CPU-s | p99 ms | peak RSS MB | cold start ms | first-load JS gz KB |',
    '|---|--:|--:|--:|--:|--:|',
  ];
  for (const outcome of outcomes) {
    if ('failed' in outcome) {
      lines.push(`| ${outcome.label} | failed: ${outcome.failed.replaceAll('|', '\\|')} | | | | |`);
      continue;
    }
    const quoted = QUOTED[outcome.name];
    const multiple = quoted && ratio(outcome.name, quoted[0]);
    const perCpu = outcome.label.startsWith('**')
      ? `**${whole(outcome.perCpuSecond)}**${multiple ? ` (${times(multiple)} ${quoted[1]})` : ''}`
      : whole(outcome.perCpuSecond);
    const js = outcome.firstLoadJsKb === undefined ? '-' : outcome.firstLoadJsKb.toFixed(1);
    lines.push(
      `| ${outcome.label} | ${perCpu} | ${whole(outcome.p99)} | ${whole(outcome.peakRssMb)} | ${whole(outcome.coldStartMs)} | ${js} |`,
    );
  }

  const quotes = RATIOS.flatMap(([ours, heading, peers]) => {
    const parts = peers.flatMap(([peer, label]) => {
      const value = ratio(ours, peer);
      return value === undefined ? [] : [`${times(value)} ${label}`];
    });
    return parts.length ? [`${heading}: ${parts.join(', ')}`] : [];
  });
  if (quotes.length) lines.push('', `Ratios of req per CPU-s, same run: ${quotes.join('; ')}.`);
  if (options.pairs?.length)
    lines.push('', 'The same ratios in paired turns, the figures to quote:', '', ...options.pairs.map((pair) => `- ${pair}`));

  lines.push(
    '',
    '| target | req/s | server CPU % | others on CPU 0 / 1 % | p50 ms | HTML KB | non-2xx | errors |',
    '|---|--:|--:|--:|--:|--:|--:|--:|',
    ...outcomes.flatMap((outcome) =>
      'failed' in outcome
        ? []
        : [
            `| ${outcome.label} | ${whole(outcome.requestsPerSecond)} | ${whole(outcome.serverCpuPercent)} | ${outcome.othersCpuPercent?.map(whole).join(' / ') ?? '-'} | ${whole(outcome.p50)} | ${outcome.htmlKb.toFixed(1)} | ${outcome.non2xx} | ${outcome.errors} |`,
          ],
    ),
    '',
    "req per CPU-s: requests divided by the server's user + system CPU seconds during the load, so it does not depend on how busy",
    'the load generator was. Server CPU % well under 100 with little else on CPU 0: the load generator, not the server, set the pace.',
    "Others on CPU 0 / 1: what other processes took of the server's and the load generator's CPU meanwhile. Well above 0 means the",
    'run shared its CPUs: its figures, p99 and cold start first, are not to be quoted.',
  );
  return lines.join('\n');
}

function whole(value: number): string {
  return Math.round(value).toLocaleString('en');
}

function times(value: number): string {
  return `${value.toFixed(value < 1 ? 2 : 1)}x`;
}

/** The pair's figures: b / a per turn (the median, and the range), and each side's req per CPU-s over all its turns. */
export function pairedSummary(a: string, b: string, turns: Turns, settings: { turns: number; turn: number }): string {
  const { ratios } = turns;
  const perCpu = (side: 'base' | 'other') => whole(turns[side].requests / turns[side].cpu);
  return (
    `${settings.turns} paired turns of ${settings.turn} s, alternating: ${b} / ${a} = ${median(ratios).toFixed(2)}x (median; ` +
    `${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}x), ` +
    `${a} ${perCpu('base')} and ${b} ${perCpu('other')} req per CPU-s over all turns`
  );
}
