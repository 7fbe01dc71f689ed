/** A problem in a content or messages file, reported with its file and line. */
export class ContentError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.length === 1 ? problems[0] : `${problems.length} content problems:\n  ${problems.join('\n  ')}`);
    this.name = 'ContentError';
  }
}
