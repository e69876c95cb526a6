import { Group, Stack, TextInput } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, ok } from '../../api/client';
import { ActionDialog } from '../../components/ActionDialog';
import { PageTitle } from '../../components/Layout';
import { DataTable, ErrorNote, PAGE_SIZE, Pager, useFormat, useUrlFilters } from '../../components/ui';

export default function InventoryPage() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const { values, page, set } = useUrlFilters(['search'] as const);
  // the box says what the list is filtered by, also when the address changes under it (the menu's link, Back)
  const [search, setSearch] = useState(values.search);
  useEffect(() => setSearch(values.search), [values.search]);
  const query = { page, limit: PAGE_SIZE, search: values.search || undefined };
  const items = useQuery({ queryKey: ['inventory', query], queryFn: () => ok(api.GET('/finance/inventory', { params: { query } })), placeholderData: keepPreviousData });
  return (
    <Stack>
      <PageTitle>{t('nav.inventory')}</PageTitle>
      <Group align="end">
        <TextInput
          type="search"
          label={t('inventory.search')}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          onKeyDown={(e) => e.key === 'Enter' && set({ search: search.trim() })}
          style={{ flex: 1, minWidth: 200 }}
        />
        <ActionDialog
          label={t('inventory.add')}
          variant="filled"
          fields={[
            { name: 'itemname', label: t('inventory.itemname'), required: true },
            { name: 'quantity', label: t('inventory.quantity'), kind: 'number', required: true },
            { name: 'unitcost', label: t('inventory.unitcost'), kind: 'number', required: true },
            { name: 'supplier', label: t('inventory.supplier'), required: true },
          ]}
          submitLabel={t('inventory.add')}
          action={(v) => ok(api.POST('/finance/inventory/add', { body: { itemname: v.itemname, quantity: v.quantity, unitcost: v.unitcost, supplier: v.supplier } }))}
          success={(i) => t('inventory.added', { name: (i as { itemname?: string }).itemname ?? '' })}
          invalidates={[['inventory']]}
        />
      </Group>
      <ErrorNote error={items.error} />
      <DataTable
        caption={t('nav.inventory')}
        empty={t('common.none')}
        head={[t('inventory.itemname'), t('inventory.quantity'), t('inventory.unitcost'), t('inventory.supplier'), t('inventory.created')]}
        rows={(items.data?.items ?? []).map((i) => [i.itemname, i.quantity, fmt.money(i.unitcost), i.supplier, fmt.time(i.createdat)])}
      />
      <Pager total={items.data?.total} page={page} onChange={(p) => set({ page: p })} />
    </Stack>
  );
}
