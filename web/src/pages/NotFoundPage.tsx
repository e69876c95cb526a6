import { useTranslation } from 'react-i18next';
import { PageTitle } from '../components/Layout';

export default function NotFoundPage() {
  const { t } = useTranslation();
  return <PageTitle>{t('common.notFound')}</PageTitle>;
}
