// A view's heading, focused when the view opens so a screen reader and the keyboard start there.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

export function ViewHeading({ children }: { children: ComponentChildren }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <h1 ref={heading} tabIndex={-1}>
      {children}
    </h1>
  );
}
