// A view's heading, focused when the view opens so a screen reader and the keyboard start there.
import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';

export function ViewHeading({ children }: { children: ComponentChildren }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // Before the view is painted: a key pressed once it shows is never taken back by a late focus.
  useLayoutEffect(() => heading.current?.focus(), []);
  return (
    <h1 ref={heading} tabIndex={-1}>
      {children}
    </h1>
  );
}
