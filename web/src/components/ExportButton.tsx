import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { download } from '../api/download';
import { currentSession } from '../api/session';

/** "Export CSV" (ADMIN only): one of /finance/exports/*.csv, downloaded with the token in a header. */
export function ExportButton({ file, query }: { file: string; query?: Record<string, string | undefined> }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  if (currentSession()?.role !== 'ADMIN') return null;
  const params = new URLSearchParams(Object.entries(query ?? {}).filter((e): e is [string, string] => !!e[1]));
  const path = `/finance/exports/${file}${params.size ? `?${params}` : ''}`;
  const run = async () => {
    setBusy(true);
    try {
      await download(path, file);
    } catch (error) {
      notifications.show({ color: 'red', message: t('common.exportFailed', { message: (error as Error).message }) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="default" size="sm" onClick={run} loading={busy}>
      {t('common.exportCsv')}
    </Button>
  );
}
