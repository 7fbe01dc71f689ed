import { Component, type ReactNode } from 'react';

/**
 * The failure screen's heading, the same words Next.js shows, so people (and
 * monitors that look for it) recognise it; it stays English in every locale's document.
 */
export const APP_ERROR_HEADING = 'Application error: a client-side exception has occurred';

/**
 * Replaces the whole page when rendering throws in the browser. `onError` decides
 * whether to try a full page load first (after a client navigation), in which
 * case nothing is shown while the browser reloads.
 */
export class RootErrorBoundary extends Component<{ children: ReactNode; onError: () => boolean }, { error: unknown; reloading: boolean }> {
  override state = { error: null as unknown, reloading: false };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override componentDidCatch() {
    if (this.props.onError()) this.setState({ reloading: true });
  }

  override render() {
    if (this.state.error === null) return this.props.children;
    if (this.state.reloading) return null;
    return <ErrorScreen />;
  }
}

export function ErrorScreen() {
  // lang/dir pinned: the text is English even inside an Arabic (RTL) document.
  return (
    <div className="app-error" role="alert" lang="en" dir="ltr">
      <h1>{APP_ERROR_HEADING}</h1>
      <p>See the browser console for details. Reloading the page usually helps.</p>
      <button type="button" onClick={() => window.location.reload()}>
        Reload the page
      </button>
    </div>
  );
}
