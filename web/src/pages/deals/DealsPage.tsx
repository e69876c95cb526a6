import { Group, Stack } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, ok } from '../../api/client';
import { currentSession } from '../../api/session';
import { ActionDialog } from '../../components/ActionDialog';
import { PageTitle } from '../../components/Layout';
import { DataTable, ErrorNote, PAGE_SIZE, Pager, StatusBadge, useFormat, useUrlFilters } from '../../components/ui';

export default function DealsPage() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const admin = currentSession()?.role === 'ADMIN';
  const { page, set } = useUrlFilters([] as const);
  const deals = useQuery({ queryKey: ['deals', page], queryFn: () => ok(api.GET('/finance/deals', { params: { query: { page, limit: PAGE_SIZE } } })), placeholderData: keepPreviousData });
  return (
    <Stack>
      <PageTitle>{t('nav.deals')}</PageTitle>
      {admin && (
        <Group>
          <ActionDialog
            label={t('deals.create')}
            variant="filled"
            fields={[
              { name: 'dealname', label: t('deals.dealname'), required: true },
              { name: 'totalamount', label: t('deals.totalamount'), kind: 'number', required: true },
              { name: 'deposit', label: t('deals.deposit'), kind: 'number', required: true },
              { name: 'monthly', label: t('deals.monthly'), kind: 'number', required: true },
              { name: 'months', label: t('deals.months'), kind: 'number', required: true },
            ]}
            submitLabel={t('deals.create')}
            action={(v) => ok(api.POST('/finance/deals/create', { body: { dealname: v.dealname, totalamount: v.totalamount, deposit: v.deposit, monthly: v.monthly, months: v.months } }))}
            success={(d) => t('deals.created', { name: (d as { dealname?: string }).dealname ?? '' })}
            invalidates={[['deals']]}
          />
        </Group>
      )}
      <ErrorNote error={deals.error} />
      <DataTable
        caption={t('nav.deals')}
        empty={t('common.none')}
        head={[t('deals.dealname'), t('deals.totalamount'), t('deals.deposit'), t('deals.monthly'), t('deals.months'), t('deals.active'), '']}
        rows={(deals.data?.items ?? []).map((d) => [
          d.dealname,
          fmt.money(d.totalamount),
          fmt.money(d.deposit),
          fmt.money(d.monthly),
          d.months,
          <StatusBadge status={d.active ? t('deals.activeYes') : t('deals.activeNo')} />,
          admin && d.active ? (
            <ActionDialog
              label={t('deals.deactivate')}
              title={t('deals.deactivateTitle', { name: d.dealname })}
              color="red"
              confirm={t('deals.deactivateConfirm', { name: d.dealname })}
              fields={[]}
              submitLabel={t('deals.deactivate')}
              action={() => ok(api.POST('/finance/deals/deactivate', { body: { dealid: d.dealid } }))}
              success={() => t('deals.deactivated', { name: d.dealname })}
              invalidates={[['deals']]}
            />
          ) : null,
        ])}
      />
      <Pager total={deals.data?.total} page={page} onChange={(p) => set({ page: p })} />
    </Stack>
  );
}
