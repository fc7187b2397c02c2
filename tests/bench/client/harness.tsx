/**
 * Development scenes of the form dialog, pickers and uploads against a running server (served
 * by the Vite dev server only; never part of the production build). Signs in as the demo admin,
 * then shows `?scene=<name>&resource=<name>&mode=add|edit|view&id=…`. Used for screenshots and
 * by hand; scenes: form, tree-picker, table-picker (max, exclude, multiple), area.
 */
import { md5 } from 'js-md5';
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { Button, Card, ConfigProvider, Space, Typography } from 'antd';
import { FeedbackProvider, useFeedback } from '../../../src/client/feedback/FeedbackProvider.tsx';
import zhCN from 'antd/es/locale/zh_CN';
import 'virtual:antd-styles.css';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { loginByPassword } from '../../../src/client/api/auth.ts';
import { bindNotifier } from '../../../src/client/api/notify.ts';
import { completeSignIn } from '../../../src/client/app/session/signIn.ts';
import { antdThemeOf } from '../../../src/client/app/theme/antdTheme.ts';
import type { ThemeName } from '../../../src/client/app/theme/palette.ts';
import { getAccessToken } from '../../../src/client/store/cookies.ts';
import type { ResourceFile } from '../../../src/shared/resource.ts';
import { loadResource } from '../../../src/client/renderer/common/useResource.ts';
import { AreaCascader, PickerInput, TablePickerDialog, TreePickerDialog, resolvePicker } from '../../../src/client/renderer/pickers/index.ts';
import { FormDialog } from '../../../src/client/renderer/form/FormDialog.tsx';
import type { FormMode } from '../../../src/client/renderer/form/types.ts';

dayjs.locale('zh-cn');
const query = new URLSearchParams(location.search);
const scene = query.get('scene') ?? 'form';

async function signIn(): Promise<void> {
  if (getAccessToken()) return;
  const token = await loginByPassword({ tenantId: '000000', username: 'admin', passwordMd5: md5('admin') });
  await completeSignIn(token, '000000');
}

function MessageBinder() {
  const { message } = useFeedback();
  useEffect(() => bindNotifier(message), [message]);
  return null;
}

function FormScene({ resource }: { resource: ResourceFile }) {
  const [open, setOpen] = useState(true);
  const [saved, setSaved] = useState<unknown>();
  const mode = (query.get('mode') ?? 'add') as FormMode;
  return (
    <Space direction="vertical" style={{ padding: 24 }}>
      <Button onClick={() => setOpen(true)}>open</Button>
      <Typography.Text code data-testid="saved">{saved ? JSON.stringify(saved).slice(0, 300) : ''}</Typography.Text>
      {open && (
        <FormDialog
          resource={resource}
          mode={mode}
          id={query.get('id') ?? undefined}
          open
          onClose={() => setOpen(false)}
          onSaved={setSaved}
        />
      )}
    </Space>
  );
}

function TreePickerScene({ resource }: { resource: ResourceFile }) {
  const picker = resolvePicker(resource, query.get('picker') ?? 'default');
  const [open, setOpen] = useState(true);
  const [picked, setPicked] = useState('');
  return (
    <Space direction="vertical" style={{ padding: 24 }}>
      <Button onClick={() => setOpen(true)}>open</Button>
      <Typography.Text data-testid="picked">{picked}</Typography.Text>
      {open && (
        <TreePickerDialog
          open
          picker={picker}
          multiple={query.get('multiple') === '1'}
          value={[]}
          onCancel={() => setOpen(false)}
          onOk={(nodes) => {
            setPicked(nodes.map((node) => node.title).join(','));
            setOpen(false);
          }}
        />
      )}
    </Space>
  );
}

function TablePickerScene({ resource }: { resource: ResourceFile }) {
  const max = query.get('max');
  const picker = { ...resolvePicker(resource, query.get('picker') ?? 'default'), ...(max ? { max: Number(max) } : {}) };
  const exclude = query.get('exclude')?.split(',');
  const [open, setOpen] = useState(true);
  const [picked, setPicked] = useState('');
  return (
    <Space direction="vertical" style={{ padding: 24 }}>
      <Button onClick={() => setOpen(true)}>open</Button>
      <Typography.Text data-testid="picked">{picked}</Typography.Text>
      {open && (
        <TablePickerDialog
          open
          resource={resource}
          picker={picker}
          multiple={query.get('multiple') === '1'}
          selected={[]}
          exclude={exclude}
          onCancel={() => setOpen(false)}
          onOk={(rows) => {
            setPicked(rows.map((row) => String(row[picker.labelField])).join(','));
            setOpen(false);
          }}
        />
      )}
    </Space>
  );
}

function AreaScene() {
  const [value, setValue] = useState<string | undefined>(query.get('code') ?? undefined);
  const [names, setNames] = useState<string[]>([]);
  return (
    <Card title="所在地区" style={{ margin: 24, width: 480 }}>
      <Space direction="vertical" style={{ width: '100%' }}>
        <AreaCascader value={value} onChange={(code, picked) => { setValue(code); setNames(picked); }} />
        <Typography.Text data-testid="area">{value ?? ''} {names.join('')}</Typography.Text>
        <PickerInput resource="dept" value={undefined} onChange={() => undefined} />
      </Space>
    </Card>
  );
}

function Scene() {
  const [resource, setResource] = useState<ResourceFile>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    signIn()
      .then(() => loadResource(query.get('resource') ?? 'param'))
      .then(setResource, (e: unknown) => setError(String(e)));
  }, []);
  if (error) return <pre>{error}</pre>;
  if (!resource) return null;
  if (scene === 'tree-picker') return <TreePickerScene resource={resource} />;
  if (scene === 'area') return <AreaScene />;
  if (scene === 'table-picker') return <TablePickerScene resource={resource} />;
  return <FormScene resource={resource} />;
}

createRoot(document.getElementById('root')!).render(
  <ConfigProvider theme={antdThemeOf((query.get('theme') ?? 'default') as ThemeName)} locale={zhCN} button={{ autoInsertSpace: false }}>
    <FeedbackProvider>
      <MessageBinder />
      <Scene />
    </FeedbackProvider>
  </ConfigProvider>,
);
