import { useT } from '../../i18n/index.ts';

/** 登录, or a spinner with 登录中… while the sign-in runs. */
export function SubmitButton({ busy }: { busy: boolean }) {
  const t = useT();
  return (
    <button type="submit" className="plain-btn plain-btn-primary plain-btn-block" aria-busy={busy}>
      {busy && <span className="plain-spin" aria-hidden="true" />}
      {busy ? t('login.signingIn') : t('login.submit')}
    </button>
  );
}
