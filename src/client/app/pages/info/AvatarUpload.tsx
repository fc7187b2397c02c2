import { useState } from 'react';
import { Avatar, Button, Flex, Typography, Upload, type UploadProps } from 'antd';
import UploadOutlined from '@ant-design/icons/es/icons/UploadOutlined';
import UserOutlined from '@ant-design/icons/es/icons/UserOutlined';
import { uploadFile } from '../../../api/shell.ts';
import { useT } from '../../i18n/index.ts';
import { website } from '../../website.ts';
import { useFeedback } from '../../../feedback/FeedbackProvider.tsx';

const AVATAR_TYPES = ['image/png', 'image/jpeg'];

/** True for png/jpg files of at most 500 kb (the profile avatar rule). */
export function isAcceptableAvatar(file: { type?: string; size?: number }): boolean {
  return AVATAR_TYPES.includes(file.type ?? '') && (file.size ?? Infinity) <= website.avatarMaxBytes;
}

/** Avatar picker for the profile form: value is the uploaded file's link. */
export function AvatarUpload({ value, onChange }: { value?: string; onChange?: (link: string) => void }) {
  const t = useT();
  const { message } = useFeedback();
  const [uploading, setUploading] = useState(false);

  const beforeUpload: UploadProps['beforeUpload'] = (file) => {
    if (isAcceptableAvatar(file)) return true;
    void message.error(t('info.avatarRule'));
    return Upload.LIST_IGNORE;
  };

  const customRequest: UploadProps['customRequest'] = async ({ file, onSuccess, onError }) => {
    setUploading(true);
    try {
      const uploaded = await uploadFile(file as File, undefined, true);
      onChange?.(uploaded.link);
      onSuccess?.(uploaded);
      void message.success(t('info.avatarUploaded'));
    } catch (error) {
      void message.error(t('info.avatarUploadFailed'));
      onError?.(error as Error);
    } finally {
      setUploading(false);
    }
  };

  return (
    <Flex align="center" gap={16}>
      <Avatar size={80} src={value || undefined} icon={<UserOutlined />} data-testid="profile-avatar" />
      <Flex vertical gap={4}>
        <Upload
          accept=".png,.jpg,.jpeg,image/png,image/jpeg"
          showUploadList={false}
          beforeUpload={beforeUpload}
          customRequest={customRequest}
          maxCount={1}
        >
          <Button icon={<UploadOutlined />} loading={uploading} data-testid="avatar-upload">
            {t('info.uploadAvatar')}
          </Button>
        </Upload>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('info.avatarRule')}
        </Typography.Text>
      </Flex>
    </Flex>
  );
}
