import { useQuery } from '@tanstack/react-query';
import { useServices, useSession } from '../app/ServicesContext';
import type { AdvancedMode } from './advancedRules';

/** The signed-in user's advanced-mode right and default mode (spec section 6). */
export function useAdvancedMode(): AdvancedMode {
  const allowed = useSession((s) => s.context.user?.has_advanced_mode === true);
  const byDefault = useSession((s) => s.context.user?.default_advanced_mode === true);
  return { allowed, byDefault: allowed && byDefault };
}

/** The catalogue's look-ups for the channels screen, cached like the system list: the catalogue does not change while the app runs. */
export function useChannelTypes(product: string | undefined, loading: string | undefined, enabled: boolean) {
  const { drainage } = useServices();
  return useQuery({
    queryKey: ['channelTypes', product, loading],
    queryFn: () => drainage.channelTypes(product!, loading!),
    enabled: enabled && !!product && !!loading,
    staleTime: Infinity,
  });
}

export function useChannelOptions(query: { product?: string; loading?: string; subProduct?: string; noBuiltInFall: boolean }, enabled: boolean) {
  const { drainage } = useServices();
  return useQuery({
    queryKey: ['channels', query.product, query.loading ?? '', query.subProduct ?? '', query.noBuiltInFall],
    queryFn: () => drainage.channels({ product: query.product!, loading: query.loading, subProduct: query.subProduct, noBuiltInFall: query.noBuiltInFall }),
    enabled: enabled && !!query.product,
    staleTime: Infinity,
  });
}

export function useTrashBoxes(query: { product?: string; loading?: string; channel?: string }, enabled: boolean) {
  const { drainage } = useServices();
  return useQuery({
    queryKey: ['trashBoxes', query.product, query.loading ?? '', query.channel ?? ''],
    queryFn: () => drainage.trashBoxDischarges({ product: query.product!, loading: query.loading, channel: query.channel }),
    enabled: enabled && !!query.product,
    staleTime: Infinity,
  });
}

export function useEndCaps(channel: string | undefined, enabled: boolean) {
  const { drainage } = useServices();
  return useQuery({
    queryKey: ['endCaps', channel],
    queryFn: () => drainage.endCapsWithOutlet(channel!),
    enabled: enabled && !!channel,
    staleTime: Infinity,
  });
}
