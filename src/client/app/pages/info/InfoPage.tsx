import { Card, Tabs } from 'antd';
import { useT } from '../../i18n/index.ts';
import { PasswordForm } from './PasswordForm.tsx';
import { ProfileForm } from './ProfileForm.tsx';

/** /info/index: personal info and change password. */
export default function InfoPage() {
  const t = useT();
  return (
    <Card data-testid="info-page">
      <Tabs
        items={[
          { key: 'profile', label: t('info.tabProfile'), children: <ProfileForm /> },
          { key: 'password', label: t('info.tabPassword'), children: <PasswordForm /> },
        ]}
      />
    </Card>
  );
}
