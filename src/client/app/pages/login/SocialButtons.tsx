import type { ComponentType } from 'react';
import { Button, Divider, Flex } from 'antd';
import AlipayCircleOutlined from '@ant-design/icons/es/icons/AlipayCircleOutlined';
import CodeOutlined from '@ant-design/icons/es/icons/CodeOutlined';
import DingtalkOutlined from '@ant-design/icons/es/icons/DingtalkOutlined';
import GithubOutlined from '@ant-design/icons/es/icons/GithubOutlined';
import GoogleOutlined from '@ant-design/icons/es/icons/GoogleOutlined';
import LoginOutlined from '@ant-design/icons/es/icons/LoginOutlined';
import QqOutlined from '@ant-design/icons/es/icons/QqOutlined';
import WechatOutlined from '@ant-design/icons/es/icons/WechatOutlined';
import WechatWorkOutlined from '@ant-design/icons/es/icons/WechatWorkOutlined';
import WeiboOutlined from '@ant-design/icons/es/icons/WeiboOutlined';
import { socialRenderUrl } from '../../../api/auth.ts';
import type { SocialProvider } from '../../../api/types.ts';
import { useT } from '../../i18n/index.ts';

/** Icons for well-known providers (imported one by one to keep the login chunk small). */
const PROVIDER_ICONS: Record<string, ComponentType> = {
  github: GithubOutlined,
  gitee: CodeOutlined,
  wechat: WechatOutlined,
  wechat_open: WechatOutlined,
  wechat_enterprise: WechatWorkOutlined,
  dingtalk: DingtalkOutlined,
  alipay: AlipayCircleOutlined,
  qq: QqOutlined,
  weibo: WeiboOutlined,
  google: GoogleOutlined,
};

function ProviderIcon({ source }: { source: string }) {
  const Icon = PROVIDER_ICONS[source.toLowerCase()] ?? LoginOutlined;
  return <Icon />;
}

/** One button per provider the server reports; each starts the provider's sign-in page. */
export function SocialButtons({
  providers,
  tenantId,
}: {
  providers: SocialProvider[];
  tenantId: () => Promise<string | undefined>;
}) {
  const t = useT();
  if (providers.length === 0) return null;

  const start = async (source: string) => {
    const tenant = await tenantId();
    if (tenant) window.location.assign(socialRenderUrl(source, tenant));
  };

  return (
    <>
      <Divider plain style={{ margin: '20px 0 12px' }}>
        {t('login.socialTitle')}
      </Divider>
      <Flex gap={8} wrap justify="center">
        {providers.map((provider) => (
          <Button
            key={provider.source}
            data-social={provider.source}
            icon={<ProviderIcon source={provider.source} />}
            onClick={() => void start(provider.source)}
          >
            {provider.name || provider.source}
          </Button>
        ))}
      </Flex>
    </>
  );
}
