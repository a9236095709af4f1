import type { AnchorHTMLAttributes, MouseEvent } from 'react';
import { navigate } from './history';

type LinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & { to: string; state?: unknown };

/** An ordinary anchor that navigates in-app, leaving modified clicks (new tab) to the browser. */
export function Link({ to, state, onClick, ...rest }: LinkProps) {
  function handleClick(event: MouseEvent<HTMLAnchorElement>) {
    onClick?.(event);
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey ||
      rest.target === '_blank'
    ) {
      return;
    }
    event.preventDefault();
    navigate(to, { state });
  }
  return <a href={to} onClick={handleClick} {...rest} />;
}
