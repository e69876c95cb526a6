import { Anchor, Group, Select, Stack, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, ok, type Schemas } from '../../api/client';
import { PageTitle } from '../../components/Layout';
import { DataTable, ErrorNote, PAGE_SIZE, Pager, StatusBadge, useFormat, useUrlFilters } from '../../components/ui';

type Status = Schemas['SmsMessageResponse']['status'];
const STATUSES: Status[] = ['FAILED', 'PENDING', 'SENT', 'DELIVERED', 'CANCELLED'];
export const ALL = 'ALL';

/** Customer messages, FAILED first (the ones to look at); status and page in the URL. */
export default function MessagesPage() {
  const { t } = useTranslation();
  const { values, page, set } = useUrlFilters(['status'] as const);
  // a status the list does not know (an edited link, "failed") reads as the default rather than as a refused request
  const status = [...STATUSES, ALL].includes(values.status as Status) ? values.status : 'FAILED';
  const query = { page, limit: PAGE_SIZE, status: status === ALL ? undefined : (status as Status) };
  const messages = useQuery({ queryKey: ['messages', query], queryFn: () => ok(api.GET('/finance/messages', { params: { query } })), placeholderData: keepPreviousData });
  return (
    <Stack>
      <PageTitle>{t('nav.messages')}</PageTitle>
      <Group align="end">
        <Select
          label={t('messages.status')}
          data={[...STATUSES, ALL].map((s) => ({ value: s, label: s === ALL ? t('messages.all') : s }))}
          value={status}
          onChange={(v) => set({ status: v && v !== 'FAILED' ? v : '' })}
          allowDeselect={false}
          w={180}
        />
        <Text size="sm" c="dimmed">
          {t('messages.failuresHint')}
        </Text>
      </Group>
      <ErrorNote error={messages.error} />
      <MessagesTable items={messages.data?.items ?? []} withCustomer />
      <Pager total={messages.data?.total} page={page} onChange={(p) => set({ page: p })} />
    </Stack>
  );
}

export function MessagesTable({ items, withCustomer }: { items: Schemas['SmsMessageResponse'][]; withCustomer?: boolean }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const head = [t('messages.created'), ...(withCustomer ? [t('messages.customer')] : []), t('messages.kind'), t('messages.status'), t('messages.text'), t('messages.segments'), t('messages.sent'), t('messages.delivered'), t('messages.reason')];
  return (
    <DataTable
      caption={t('nav.messages')}
      empty={t('messages.none')}
      head={head}
      rows={items.map((m) => [
        fmt.time(m.createdat),
        ...(withCustomer
          ? [
              <Anchor component={Link} to={`/customers/${m.customerid}`}>
                {t('messages.customerLink', { id: m.customerid })}
              </Anchor>,
            ]
          : []),
        m.kind,
        <StatusBadge status={m.status} />,
        m.text,
        m.segments,
        // apart: a message the gateway took is not yet one the phone received
        fmt.time(m.sentat),
        fmt.time(m.deliveredat),
        m.failurereason ?? m.lasterror ?? '—',
      ])}
    />
  );
}
