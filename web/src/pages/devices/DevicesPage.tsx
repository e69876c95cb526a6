import { Anchor, Group, Select, Stack, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, ok, type Schemas } from '../../api/client';
import { CustomerPicker } from '../../components/CustomerPicker';
import { PageTitle } from '../../components/Layout';
import { DataTable, ErrorNote, PAGE_SIZE, Pager, StatusBadge, useFormat, useUrlFilters } from '../../components/ui';

type Status = Schemas['CommandResponse']['status'];
type Action = Schemas['CommandResponse']['action'];
const STATUSES: Status[] = ['PENDING', 'DELIVERED'];
const ACTIONS: Action[] = ['LOCK', 'UNLOCK', 'TEMP_UNLOCK', 'PERMANENT_LOCK', 'RELEASE', 'SYNC'];
const ALL = 'ALL';
const COMMAND_POLL_MS = 2000;

/** The device-command outbox, newest first: every customer's, or one customer's; filters and page in the URL. */
export default function DevicesPage() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const { values, page, set } = useUrlFilters(['customerid', 'status', 'action'] as const);
  // a customer number edited or cut in a link ("abc") is no filter, rather than the service's 400
  const asked = Number(values.customerid);
  const customerid = values.customerid && Number.isInteger(asked) && asked >= 1 && asked <= 2147483647 ? asked : null;
  const status = STATUSES.includes(values.status as Status) ? (values.status as Status) : undefined;
  const action = ACTIONS.includes(values.action as Action) ? (values.action as Action) : undefined;
  const query = { page, limit: PAGE_SIZE, customerid: customerid ?? undefined, status, action };
  const commands = useQuery({
    queryKey: ['commands', query],
    queryFn: () => ok(api.GET('/finance/device/commands', { params: { query } })),
    placeholderData: keepPreviousData,
    // read again while a command shown waits for the platform, as a customer's page does: PENDING turns DELIVERED without a reload
    refetchInterval: (q) => (q.state.data?.items.some((k) => k.status === 'PENDING') ? COMMAND_POLL_MS : false),
  });
  const choices = (list: string[]) => [{ value: ALL, label: t('devices.all') }, ...list.map((v) => ({ value: v, label: v }))];
  return (
    <Stack>
      <PageTitle>{t('nav.devices')}</PageTitle>
      <Text size="sm">{t('devices.hint')}</Text>
      <Group align="end" wrap="wrap">
        <Select label={t('devices.status')} data={choices(STATUSES)} value={status ?? ALL} onChange={(v) => set({ status: v && v !== ALL ? v : '' })} allowDeselect={false} w={160} />
        <Select label={t('devices.action')} data={choices(ACTIONS)} value={action ?? ALL} onChange={(v) => set({ action: v && v !== ALL ? v : '' })} allowDeselect={false} w={180} />
        <div style={{ minWidth: 260, flex: 1 }}>
          <CustomerPicker label={t('devices.customer')} value={customerid} onChange={(id) => set({ customerid: id ?? '' })} clearable />
        </div>
      </Group>
      <ErrorNote error={commands.error} />
      <DataTable
        caption={t('nav.devices')}
        empty={t('common.none')}
        head={[t('devices.created'), t('devices.customer'), t('devices.action'), t('devices.status'), t('devices.attempts'), t('devices.lasterror'), t('devices.nextattempt'), t('devices.delivered'), t('devices.reason')]}
        rows={(commands.data?.items ?? []).map((k) => [
          fmt.time(k.createdat),
          <Anchor component={Link} to={`/customers/${k.customerid}`}>
            {t('messages.customerLink', { id: k.customerid })}
          </Anchor>,
          k.action,
          <StatusBadge status={k.status} />,
          k.attempts,
          k.lasterror ?? '—',
          fmt.time(k.nextattemptat),
          fmt.time(k.deliveredat),
          k.reason,
        ])}
      />
      <Pager total={commands.data?.total} page={page} onChange={(p) => set({ page: p })} />
    </Stack>
  );
}
