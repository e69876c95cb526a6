import { Stack, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, ok } from '../../api/client';
import { CustomerPicker } from '../../components/CustomerPicker';
import { PageTitle } from '../../components/Layout';
import { DataTable, ErrorNote, PAGE_SIZE, Pager, StatusBadge, useFormat, useUrlFilters } from '../../components/ui';

/** The device-command outbox of one customer (the service lists commands per customer). */
export default function DevicesPage() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const { values, page, set } = useUrlFilters(['customerid'] as const);
  const customerid = values.customerid ? Number(values.customerid) : null;
  const commands = useQuery({
    queryKey: ['commands', customerid, page],
    enabled: customerid !== null,
    queryFn: () => ok(api.GET('/finance/device/commands', { params: { query: { customerid: customerid!, page, limit: PAGE_SIZE } } })),
    placeholderData: keepPreviousData,
  });
  return (
    <Stack>
      <PageTitle>{t('nav.devices')}</PageTitle>
      <Text size="sm">{t('devices.hint')}</Text>
      <CustomerPicker label={t('payments.customer')} value={customerid} onChange={(id) => set({ customerid: id ?? '' })} />
      <ErrorNote error={commands.error} />
      {customerid !== null && (
        <>
          <DataTable
            caption={t('nav.devices')}
            empty={t('common.none')}
            head={[t('devices.created'), t('devices.action'), t('devices.status'), t('devices.attempts'), t('devices.lasterror'), t('devices.nextattempt'), t('devices.delivered'), t('devices.reason')]}
            rows={(commands.data?.items ?? []).map((k) => [fmt.time(k.createdat), k.action, <StatusBadge status={k.status} />, k.attempts, k.lasterror ?? '—', fmt.time(k.nextattemptat), fmt.time(k.deliveredat), k.reason])}
          />
          <Pager total={commands.data?.total ?? 0} page={page} onChange={(p) => set({ page: p })} />
        </>
      )}
    </Stack>
  );
}
