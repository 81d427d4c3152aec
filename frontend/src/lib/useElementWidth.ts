import { useLayoutEffect, useRef, useState } from 'react';

/** Width of an element in px, kept current with ResizeObserver (charts lay out to it). */
export function useElementWidth<T extends HTMLElement>(fallbackWidth = 960) {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(fallbackWidth);

  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      const measured = Math.floor(element.getBoundingClientRect().width);
      if (measured > 0) setWidth(measured);
    };
    measure();
    // jsdom has no ResizeObserver; the fallback width is fine there.
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  return { ref, width };
}
