import { useQuery } from '@tanstack/react-query';
import { useServices, useSession } from '../app/ServicesContext';
import type { DrainageSystem } from './types';

/** The drainage systems of the user's country; cached, and fetched again when the country changes. */
export function useProducts() {
  const { drainage } = useServices();
  const country = useSession((snapshot) => snapshot.context.user?.country?.iso_code ?? '');
  return useQuery<DrainageSystem[]>({
    queryKey: ['products', country],
    queryFn: drainage.products,
    staleTime: Infinity,
  });
}
