/** sessionStorage, which a browser may refuse (storage blocked for the site): never throws. */
export const session = {
  get(key: string): string | null {
    try {
      return sessionStorage.getItem(key);
    } catch {
      return null;
    }
  },
  /** False when the browser refuses to store. */
  set(key: string, value: string): boolean {
    try {
      sessionStorage.setItem(key, value);
      return true;
    } catch {
      return false;
    }
  },
  remove(key: string): void {
    try {
      sessionStorage.removeItem(key);
    } catch {}
  },
};
