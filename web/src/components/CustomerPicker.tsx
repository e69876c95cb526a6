import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok } from '../api/client';

/** Finds a customer by name, telephone, PAYG code, IMEI or account number, asking the service as one types. */
export function CustomerPicker({ label, value, onChange, error, clearable }: { label: string; value: number | null; onChange: (id: number | null) => void; error?: string; clearable?: boolean }) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const found = useQuery({
    queryKey: ['customers', 'picker', debounced],
    enabled: debounced.length >= 2,
    queryFn: () => ok(api.GET('/finance/customers', { params: { query: { search: debounced, limit: 10 } } })),
  });
  const data = (found.data?.items ?? []).map((c) => ({ value: String(c.customerid), label: `${c.fullname} · ${c.telephone} · ${c.payg}` }));
  return (
    <Select
      label={label}
      searchable
      data={data}
      value={value === null ? null : String(value)}
      onChange={(v) => onChange(v ? Number(v) : null)}
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options }) => options}
      error={error}
      clearable={clearable}
      nothingFoundMessage={debounced.length >= 2 && !found.isFetching ? '—' : undefined}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
