import { Alert, Button, FileInput, Group, Progress, SegmentedControl, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, ok, type Schemas } from '../../api/client';
import { PageTitle } from '../../components/Layout';
import { DataTable, ErrorNote, PAGE_SIZE, Pager, Section, StatusBadge, useFormat, useUrlFilters } from '../../components/ui';

type Import = Schemas['ImportResponse'];
type Kind = 'customers' | 'payments';
type Mode = 'validate' | 'apply';
const RUNNING = ['VALIDATING', 'APPLYING'];

/** One import's progress, polled while it runs. */
function ImportProgress({ item }: { item: Import }) {
  const { t } = useTranslation();
  const running = RUNNING.includes(item.status);
  const live = useQuery({
    queryKey: ['imports', item.importid],
    enabled: running,
    initialData: item,
    queryFn: () => ok(api.GET('/finance/imports/{importid}', { params: { path: { importid: item.importid } } })),
    refetchInterval: (q) => (q.state.data && RUNNING.includes(q.state.data.status) ? 1000 : false),
  });
  const current = live.data ?? item;
  const queryClient = useQueryClient();
  // finished while polled: read the list again for its final counts
  useEffect(() => {
    if (running && !RUNNING.includes(current.status)) void queryClient.invalidateQueries({ queryKey: ['imports', 'list'] });
  }, [current.status]); // eslint-disable-line react-hooks/exhaustive-deps
  const progress = current.status === 'DONE' ? 100 : current.progress;
  return <Progress value={progress} size="lg" miw={80} aria-label={t('imports.progressLabel', { id: current.importid, progress })} animated={RUNNING.includes(current.status)} />;
}

function ImportStatus({ item }: { item: Import }) {
  const live = useQuery<Import>({ queryKey: ['imports', item.importid], enabled: false, initialData: item });
  const current = live.data ?? item;
  return (
    <>
      <StatusBadge status={current.status} />
      {/* why it failed: "Nothing was applied: …" */}
      {current.status === 'FAILED' && current.message && (
        <Text size="xs" mt={4}>
          {current.message}
        </Text>
      )}
    </>
  );
}

/** The import just sent, as it goes on: an apply checks the file again and may fail on rows that changed since. */
function useFollowed(sent: Import | null): Import | null {
  const live = useQuery({
    queryKey: ['imports', sent?.importid],
    enabled: sent !== null && RUNNING.includes(sent.status),
    queryFn: () => ok(api.GET('/finance/imports/{importid}', { params: { path: { importid: sent!.importid } } })),
    refetchInterval: (q) => (q.state.data && RUNNING.includes(q.state.data.status) ? 1000 : false),
  });
  // a validate is DONE at once and comes back with its errors; the list's copy of a record (same key) has none
  return sent && RUNNING.includes(sent.status) && live.data?.importid === sent.importid ? live.data : sent;
}

export default function ImportsPage() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const queryClient = useQueryClient();
  const { page, set } = useUrlFilters([] as const);
  const [file, setFile] = useState<File | null>(null);
  const [kind, setKind] = useState<Kind>('customers');
  const [sent, setResult] = useState<Import | null>(null);
  const result = useFollowed(sent);
  const imports = useQuery({ queryKey: ['imports', 'list', page], queryFn: () => ok(api.GET('/finance/imports', { params: { query: { page, limit: PAGE_SIZE } } })), placeholderData: keepPreviousData });

  const submit = useMutation({
    mutationFn: async (mode: Mode) => {
      if (!file) throw new Error(t('imports.chooseFile'));
      const form = new FormData();
      form.append('kind', kind);
      form.append('mode', mode);
      form.append('file', file, file.name);
      // multipart: the body is sent as built, not as JSON
      return ok(api.POST('/finance/imports', { body: form as never, bodySerializer: (b) => b as unknown as FormData }));
    },
    onSuccess: async (record, mode) => {
      setResult(record);
      if (mode === 'apply') notifications.show({ color: 'green', message: t('imports.accepted', { id: record.importid }) });
      await queryClient.invalidateQueries({ queryKey: ['imports', 'list'] });
    },
    onError: (error) => notifications.show({ color: 'red', message: (error as Error).message }),
  });

  return (
    <Stack>
      <PageTitle>{t('nav.imports')}</PageTitle>
      <Section title={t('imports.upload')}>
        <Stack gap="sm">
          <Group align="end">
            <FileInput
              label={t('imports.file')}
              accept=".csv,text/csv"
              value={file}
              onChange={(f) => {
                // what was said about the last file (its validation, or why it was refused) is not about this one
                setFile(f);
                setResult(null);
                submit.reset();
              }}
              clearable
              style={{ flex: 1, minWidth: 200 }}
            />
            <div>
              <Text size="sm" fw={500} id="import-kind">
                {t('imports.kind')}
              </Text>
              <SegmentedControl
                aria-labelledby="import-kind"
                value={kind}
                onChange={(v) => {
                  // a validation says nothing about the file read as the other kind: Apply waits for a new one
                  setKind(v as Kind);
                  setResult(null);
                  submit.reset();
                }}
                data={['customers', 'payments']}
              />
            </div>
          </Group>
          <Group>
            {/* not while the file is on its way to be applied: a validation answering after it would offer Apply again */}
            <Button onClick={() => submit.mutate('validate')} loading={submit.isPending && submit.variables === 'validate'} disabled={submit.isPending}>
              {t('imports.validate')}
            </Button>
            <Button color="green.9" onClick={() => submit.mutate('apply')} disabled={!result || result.mode !== 'validate' || result.errorcount > 0} loading={submit.isPending && submit.variables === 'apply'}>
              {t('imports.apply')}
            </Button>
          </Group>
          <ErrorNote error={submit.error} />
          {result && result.status === 'FAILED' && result.message && (
            <Alert color="red" role="alert">
              {result.message}
            </Alert>
          )}
          {result && (
            <Text size="sm" role="status">
              {t('imports.result', { valid: result.valid, rows: result.rows, errors: result.errorcount })}
            </Text>
          )}
          {result && result.errors.length > 0 && (
            <DataTable
              caption={t('imports.errors')}
              empty={t('common.none')}
              head={[t('imports.row'), t('imports.field'), t('imports.message')]}
              rows={result.errors.map((e) => [e.row, e.field, e.message])}
            />
          )}
          {result && result.mode === 'validate' && result.errorcount === 0 && (
            <Alert color="green" variant="light">
              {t('imports.noErrors')}
            </Alert>
          )}
        </Stack>
      </Section>

      <Section title={t('imports.list')}>
        <ErrorNote error={imports.error} />
        <DataTable
          caption={t('imports.list')}
          empty={t('imports.none')}
          head={[t('imports.created'), t('imports.filename'), t('imports.kind'), t('imports.mode'), t('imports.status'), t('imports.rows'), t('imports.applied'), t('imports.progress')]}
          rows={(imports.data?.items ?? []).map((i) => [fmt.time(i.createdat), i.filename, i.kind, i.mode, <ImportStatus key={i.importid} item={i} />, i.rows, i.applied, <ImportProgress key={i.importid} item={i} />])}
        />
        <Pager total={imports.data?.total} page={page} onChange={(p) => set({ page: p })} />
      </Section>
    </Stack>
  );
}
