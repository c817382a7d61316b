import { type RefObject, useEffect } from 'react';

/**
 * Tell the secret frames placed in `container` the kit's language, so what the user reads inside
 * them (labels, hints, the phrase checks) matches the kit. The frame is on another origin: the
 * language goes as a `{ walletkitFrame: 1, type: 'locale', locale }` message to that origin once
 * the frame has loaded, and again when the language changes (the frame accepts it only from its
 * parent, checked against the organization's allowed origins).
 * With `title`, the frames are named in the kit's language too.
 * @example useFrameLocale(containerRef, locale, open, t('wallet.frameTitlePhrase'));
 */
export function useFrameLocale(container: RefObject<HTMLElement | null>, locale: string, active: boolean, title?: string): void {
  useEffect(() => {
    const host = container.current;
    if (!active || !host) return;
    const cleanups: Array<() => void> = [];
    const seen = new WeakSet<HTMLIFrameElement>();
    const tell = (frame: HTMLIFrameElement) => {
      let origin: string;
      try {
        origin = new URL(frame.src).origin;
      } catch {
        return; // no frame page (yet)
      }
      frame.contentWindow?.postMessage({ walletkitFrame: 1, type: 'locale', locale }, origin);
    };
    const watch = () => {
      for (const frame of host.querySelectorAll('iframe')) {
        // What a screen reader names the frame, in the kit's language.
        if (title !== undefined && frame.title !== title) frame.title = title;
        if (seen.has(frame)) continue;
        seen.add(frame);
        const onLoad = () => tell(frame);
        frame.addEventListener('load', onLoad);
        cleanups.push(() => frame.removeEventListener('load', onLoad));
        tell(frame); // already loaded (a language change): now; otherwise dropped, and sent at load
      }
    };
    watch();
    const observer = new MutationObserver(watch);
    observer.observe(host, { childList: true, subtree: true });
    return () => {
      observer.disconnect();
      for (const c of cleanups) c();
    };
  }, [container, locale, active, title]);
}
