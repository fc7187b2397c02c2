import AlipayCircleOutlined from '@ant-design/icons-svg/es/asn/AlipayCircleOutlined';
import CodeOutlined from '@ant-design/icons-svg/es/asn/CodeOutlined';
import DingtalkOutlined from '@ant-design/icons-svg/es/asn/DingtalkOutlined';
import GithubOutlined from '@ant-design/icons-svg/es/asn/GithubOutlined';
import GoogleOutlined from '@ant-design/icons-svg/es/asn/GoogleOutlined';
import LoginOutlined from '@ant-design/icons-svg/es/asn/LoginOutlined';
import QqOutlined from '@ant-design/icons-svg/es/asn/QqOutlined';
import WechatOutlined from '@ant-design/icons-svg/es/asn/WechatOutlined';
import WechatWorkOutlined from '@ant-design/icons-svg/es/asn/WechatWorkOutlined';
import WeiboOutlined from '@ant-design/icons-svg/es/asn/WeiboOutlined';
import type { IconDefinition } from '@ant-design/icons-svg/es/types';
import { socialRenderUrl } from '../../../api/auth.ts';
import type { SocialProvider } from '../../../api/types.ts';
import { useT } from '../../i18n/index.ts';
import { SvgIcon } from '../../plain/SvgIcon.tsx';

/** Icons for well-known providers. */
const PROVIDER_ICONS: Record<string, IconDefinition> = {
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

/** One button per provider the server reports; each starts the provider's sign-in page. */
export default function SocialButtons({ providers, tenantId }: { providers: SocialProvider[]; tenantId: () => string | undefined }) {
  const t = useT();
  const start = (source: string) => {
    const tenant = tenantId();
    if (tenant) window.location.assign(socialRenderUrl(source, tenant));
  };

  return (
    <>
      <div className="login-divider" role="separator">
        {t('login.socialTitle')}
      </div>
      <div className="login-social">
        {providers.map((provider) => (
          <button
            key={provider.source}
            type="button"
            className="plain-btn"
            data-social={provider.source}
            onClick={() => start(provider.source)}
          >
            <SvgIcon icon={PROVIDER_ICONS[provider.source.toLowerCase()] ?? LoginOutlined} />
            {provider.name || provider.source}
          </button>
        ))}
      </div>
    </>
  );
}
