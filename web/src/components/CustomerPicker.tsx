import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok } from '../api/client';

/** Finds a customer by name, telephone, PAYG code, IMEI or account number, asking the service as one types. */
export function CustomerPicker({
  label,
  value,
  onChange,
  error,
  clearable,
  autofocus,
}: {
  label: string;
  value: number | null;
  onChange: (id: number | null) => void;
  error?: string;
  clearable?: boolean;
  /** the field a dialog opens on */
  autofocus?: boolean;
}) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const found = useQuery({
    queryKey: ['customers', 'picker', debounced],
    enabled: debounced.length >= 2,
    queryFn: () => ok(api.GET('/finance/customers', { params: { query: { search: debounced, limit: 10 } } })),
  });
  const data = (found.data?.items ?? []).map((c) => ({ value: String(c.customerid), label: `${c.fullname} · ${c.telephone} · ${c.payg}` }));
  // a customer chosen before (e.g. read from the URL) is named even when no search found them
  const chosen = useQuery({
    queryKey: ['customer', value],
    enabled: value !== null && !data.some((d) => d.value === String(value)),
    queryFn: () => ok(api.GET('/finance/customers/{customerid}', { params: { path: { customerid: value! } } })),
  });
  if (value !== null && chosen.data && !data.some((d) => d.value === String(value))) {
    data.push({ value: String(value), label: `${chosen.data.fullname} · ${chosen.data.telephone} · ${chosen.data.payg}` });
  }
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
      data-autofocus={autofocus || undefined}
      nothingFoundMessage={debounced.length >= 2 && !found.isFetching ? '—' : undefined}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
