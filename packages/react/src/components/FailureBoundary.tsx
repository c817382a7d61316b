import { Component, type ReactNode } from 'react';

/**
 * Keeps a failure to load or render one part of the kit (a lazy chunk that did not download, a
 * request no view expected) inside that part: `fallback` shows instead, and the host app keeps
 * running (React unmounts the whole tree on an uncaught render error).
 * @example <FailureBoundary fallback={<p>Could not load.</p>}><LazyPart /></FailureBoundary>
 */
export class FailureBoundary extends Component<{ children: ReactNode; fallback: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
