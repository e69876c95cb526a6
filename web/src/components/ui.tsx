import { Alert, Badge, Card, Center, Group, Loader, type NumberInputProps, Pagination, Table, Text, Title } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ApiError } from '../api/client';
import { useClientConfig } from '../api/config';
import { formatDate, formatDateTime, formatMoney, type FormatSettings } from '../format';
import { fieldErrors } from '../forms';

/** The highest page the service's lists accept. */
const MAX_PAGE = 1_000_000;

/** List filters and the page live in the URL, so a list can be shared, reloaded and gone back to. */
export function useUrlFilters<K extends string>(keys: readonly K[]) {
  const [params, setParams] = useSearchParams();
  const values = Object.fromEntries(keys.map((k) => [k, params.get(k) ?? ''])) as Record<K, string>;
  // a page number edited or cut in a link ("1.5", "2x", past the service's 1,000,000) reads as a page the service accepts, not as a 400
  const asked = Number(params.get('page') ?? 1);
  const page = Number.isInteger(asked) && asked >= 1 ? Math.min(asked, MAX_PAGE) : 1;
  const set = (changes: Partial<Record<K | 'page', string | number>>) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) {
          if (value === '' || value === undefined || value === null) next.delete(key);
          else next.set(key, String(value));
        }
        if (!('page' in changes)) next.delete('page');
        return next;
      },
      { replace: true },
    );
  return { values, page, set };
}

export const PAGE_SIZE = 20;

/**
 * Every number typed by staff: "12,500" is twelve thousand five hundred (a comma groups thousands,
 * only "." starts the cents) and shows grouped while typed; by default the input took the comma
 * for a decimal point and loaded 12.50.
 */
export const NUMBER_INPUT: Pick<NumberInputProps, 'thousandSeparator' | 'allowedDecimalSeparators'> = { thousandSeparator: ',', allowedDecimalSeparators: ['.'] };

/**
 * The list's count and its pages. `total` is the answer's (undefined until one came): a page past the
 * last (a bookmark, or the last row of the last page assigned or resolved) moves to the last page,
 * rather than showing "nothing here" above a count of records with no page to reach them.
 */
export function Pager({ total, page, onChange, limit = PAGE_SIZE }: { total: number | undefined; page: number; onChange: (page: number) => void; limit?: number }) {
  const { t } = useTranslation();
  const pages = Math.max(1, Math.ceil((total ?? 0) / limit));
  const past = total !== undefined && page > pages;
  useEffect(() => {
    if (past) onChange(pages);
  }, [past, pages]); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <Group justify="space-between" mt="sm">
      <Text size="sm" c="dimmed">
        {t('common.total', { count: total ?? 0 })}
      </Text>
      {pages > 1 && (
        <Pagination
          total={pages}
          value={page}
          onChange={onChange}
          size="sm"
          getControlProps={(control) => ({ 'aria-label': t(`common.pageControl.${control}`) })}
          getItemProps={(p) => ({ 'aria-label': t('common.page', { page: p }), 'aria-current': p === page ? 'page' : undefined })}
        />
      )}
    </Group>
  );
}

export function Loading() {
  return (
    <Center p="lg">
      <Loader size="sm" />
    </Center>
  );
}

export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <Alert color="red" role="alert" my="sm">
      {(error as Error).message}
    </Alert>
  );
}

/** A table that scrolls sideways on a phone rather than squeezing its columns. */
/** A titled part of a page: a landmark named by its heading, which is how people and the browser tests find it. */
export function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Card withBorder component="section" aria-label={title}>
      <Title order={2} size="h4" mb="xs">
        {title}
      </Title>
      {children}
    </Card>
  );
}

export function DataTable({ head, rows, empty, caption }: { head: string[]; rows: React.ReactNode[][]; empty: string; caption?: string }) {
  return (
    // scrolls sideways on a phone; focusable so that a keyboard can scroll it too
    <div style={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={caption ?? head.filter(Boolean).join(', ')}>
      <Table striped highlightOnHover verticalSpacing="xs" miw={560}>
        {caption && <caption style={{ position: 'absolute', left: -10000 }}>{caption}</caption>}
        <Table.Thead>
          <Table.Tr>
            {head.map((h) => (
              <Table.Th key={h}>{h}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.length === 0 ? (
            <Table.Tr>
              <Table.Td colSpan={head.length}>
                <Text size="sm" c="dimmed">
                  {empty}
                </Text>
              </Table.Td>
            </Table.Tr>
          ) : (
            rows.map((cells, i) => (
              <Table.Tr key={i}>
                {cells.map((cell, j) => (
                  <Table.Td key={j}>
                    {/* a 255-character name or reference with no space wraps (at 20rem, less on a phone) instead of widening its column past the screen */}
                    <div style={{ maxWidth: 'min(20rem, 60vw)', overflowWrap: 'break-word' }}>{cell}</div>
                  </Table.Td>
                ))}
              </Table.Tr>
            ))
          )}
        </Table.Tbody>
      </Table>
    </div>
  );
}

/** Badge colours with a 4.5:1 contrast between text and background (dark shades with white, light ones with black). */
const STATUS_COLOURS: Record<string, [string, string]> = {
  LOCKED: ['red.9', 'white'],
  UNLOCKED: ['#1e6f31', 'white'],
  PAID_OFF: ['blue.9', 'white'],
  REPOSSESSED: ['dark.7', 'white'],
  PENDING: ['yellow.3', 'black'],
  APPROVED: ['#1e6f31', 'white'],
  CALLED: ['orange.3', 'black'],
  RESOLVED: ['#1e6f31', 'white'],
  DELIVERED: ['#1e6f31', 'white'],
  UNMATCHED: ['yellow.3', 'black'],
  HELD: ['red.9', 'white'],
  FAILED: ['red.9', 'white'],
  SENT: ['blue.9', 'white'],
  CANCELLED: ['dark.7', 'white'],
  DONE: ['#1e6f31', 'white'],
  VALIDATING: ['yellow.3', 'black'],
  APPLYING: ['orange.3', 'black'],
  ACTIVE: ['#1e6f31', 'white'],
  DISABLED: ['dark.7', 'white'],
};

/** A state as a coloured badge; `label` when the words shown are not the API's value. */
export function StatusBadge({ status, label }: { status: string; label?: string }) {
  const [bg, text] = STATUS_COLOURS[status] ?? ['gray.2', 'black'];
  return (
    // never cut to "PEN…" in a narrow table column: the column widens instead
    <Badge color={bg} c={text} variant="filled" miw="max-content">
      {label ?? status}
    </Badge>
  );
}

/** Formatting bound to the service's CURRENCY and BUSINESS_TIMEZONE. */
export function useFormat() {
  const config = useClientConfig();
  const s: FormatSettings = { currency: config.currency, timezone: config.timezone };
  return {
    money: (n: number | null | undefined) => formatMoney(n, s),
    date: (d: string | null | undefined) => formatDate(d),
    time: (iso: string | null | undefined) => formatDateTime(iso, s),
    config,
  };
}

/**
 * A state-changing call: the API's message as a toast, its 400 messages next to the form's fields,
 * and the lists named in `invalidates` read again afterwards.
 */
export function useAction<TInput, TOutput>(options: {
  action: (input: TInput) => Promise<TOutput>;
  success: (output: TOutput) => string;
  invalidates?: readonly unknown[][];
  form?: UseFormReturnType<any>;
  onDone?: (output: TOutput) => void;
  /** after a 409, the lists being read again */
  onConflict?: () => void;
}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: options.action,
    onSuccess: async (output) => {
      notifications.show({ color: 'green', message: options.success(output) });
      for (const key of options.invalidates ?? []) await queryClient.invalidateQueries({ queryKey: key });
      options.onDone?.(output);
    },
    onError: (error) => {
      const message = error instanceof Error ? error.message : String(error);
      // 409: the record changed under the page (another operator assigned the payment, approved the customer):
      // what the page shows is read again, rather than offered once more as it was
      if (error instanceof ApiError && error.status === 409) for (const key of options.invalidates ?? []) void queryClient.invalidateQueries({ queryKey: key });
      if (options.form && error instanceof ApiError && error.status === 400) {
        const { byField } = fieldErrors(message, Object.keys(options.form.getValues()));
        options.form.setErrors(byField);
      }
      notifications.show({ color: 'red', message });
      if (error instanceof ApiError && error.status === 409) options.onConflict?.();
    },
  });
}
