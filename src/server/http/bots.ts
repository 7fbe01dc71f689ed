/** Crawlers and previewers, by User-Agent: they get the whole document at once (no streaming reveal). */
const BOT = /bot|crawl|spider|slurp|facebookexternalhit|embedly|preview|lighthouse/i;

export function isBot(userAgent: string | undefined): boolean {
  return userAgent !== undefined && BOT.test(userAgent);
}
