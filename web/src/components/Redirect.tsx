import { useEffect } from 'react';
import { navigate } from '../router/history';

/** Replaces the current address, for pages that make no sense in the current session. */
export function Redirect({ to, state }: { to: string; state?: unknown }) {
  useEffect(() => {
    navigate(to, { replace: true, state });
  }, [to, state]);
  return null;
}
