import { useQuery } from '@tanstack/react-query';
import { api, ok, type Schemas } from './client';

export type ClientConfig = Schemas['ClientConfigResponse'];

const FALLBACK: ClientConfig = { currency: 'UGX', timezone: 'UTC', env: 'uat' };

/** CURRENCY and BUSINESS_TIMEZONE of the service, for formatting; public, loaded once. */
export function useClientConfig(): ClientConfig {
  const { data } = useQuery({ queryKey: ['client-config'], queryFn: () => ok(api.GET('/api/client-config')), staleTime: Infinity });
  return data ?? FALLBACK;
}
