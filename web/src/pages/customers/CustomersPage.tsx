import { Anchor, Group, Select, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, ok } from '../../api/client';
import { currentSession } from '../../api/session';
import { ExportButton } from '../../components/ExportButton';
import { PageTitle } from '../../components/Layout';
import { DataTable, ErrorNote, PAGE_SIZE, Pager, StatusBadge, useFormat, useUrlFilters } from '../../components/ui';
import { RegisterCustomer } from './RegisterCustomer';

type Status = 'PENDING' | 'APPROVED' | 'REPOSSESSED';

export default function CustomersPage() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const role = currentSession()?.role;
  const { values, page, set } = useUrlFilters(['search', 'status'] as const);
  const [search, setSearch] = useState(values.search);
  const [debounced] = useDebouncedValue(search, 300);
  useEffect(() => {
    if (debounced !== values.search) set({ search: debounced.trim() });
  }, [debounced]); // eslint-disable-line react-hooks/exhaustive-deps
  // the address changed under the box (the menu's Customers link, Back): the box says what the list is filtered by
  useEffect(() => {
    if (values.search !== debounced.trim()) setSearch(values.search);
  }, [values.search]); // eslint-disable-line react-hooks/exhaustive-deps
  const query = { page, limit: PAGE_SIZE, search: values.search || undefined, status: (values.status || undefined) as Status | undefined };
  const customers = useQuery({ queryKey: ['customers', query], queryFn: () => ok(api.GET('/finance/customers', { params: { query } })), placeholderData: keepPreviousData });
  return (
    <>
      <PageTitle>{t('nav.customers')}</PageTitle>
      <Group align="end" mb="md">
        <TextInput label={t('customers.search')} description={t('customers.searchHint')} value={search} onChange={(e) => setSearch(e.currentTarget.value)} type="search" style={{ flex: 1, minWidth: 200 }} />
        <Select label={t('customers.status')} data={['PENDING', 'APPROVED', 'REPOSSESSED']} value={values.status || null} onChange={(v) => set({ status: v ?? '' })} clearable w={160} />
        {role !== 'COLLECTOR' && <RegisterCustomer />}
        <ExportButton file="customers.csv" />
      </Group>
      <ErrorNote error={customers.error} />
      <DataTable
        caption={t('nav.customers')}
        empty={t('customers.none')}
        head={[t('customers.fullname'), t('customers.telephone'), t('customers.payg'), t('customers.accountnumber'), t('customers.status'), t('customers.dealStatus'), t('customers.balance'), t('customers.nextpaymentdate')]}
        rows={(customers.data?.items ?? []).map((c) => [
          <Anchor component={Link} to={`/customers/${c.customerid}`}>
            {c.fullname}
          </Anchor>,
          c.telephone,
          c.payg,
          c.accountnumber,
          <StatusBadge status={c.status} />,
          <StatusBadge status={c.deal.status} />,
          fmt.money(c.deal.balance),
          fmt.date(c.deal.nextpaymentdate),
        ])}
      />
      <Pager total={customers.data?.total} page={page} onChange={(p) => set({ page: p })} />
    </>
  );
}
