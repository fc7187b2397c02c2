/**
 * widget pageLayout (店铺装修): a page layout as JSON text beside a preview of what the mall will
 * draw — banner blocks as their images in a strip, goods blocks as their title over the goods'
 * names — updated as the text is typed. The server checks the layout on save; the preview only
 * shows, and says plainly when the text is not a layout yet.
 */
import { memo, useEffect, useMemo, useState } from 'react';
import { Card, Empty, Flex, Input, Tag, Typography } from 'antd';
import { http } from '../../api/http.ts';
import { useSettings } from '../../store/settings.ts';
import type { EditorProps } from './types.ts';
import { useLocalValue } from './useLocalValue.ts';

interface Block {
  type?: string;
  title?: string;
  images?: unknown[];
  goodsIds?: unknown[];
}

const TEXT = {
  zh: { preview: '预览', invalid: '布局不是有效的 JSON，预览暂停', noBlocks: '还没有区块', banner: '轮播图', goods: '商品区', unknown: '未知区块', more: '等 {n} 个商品' },
  en: { preview: 'Preview', invalid: 'Not valid JSON: preview paused', noBlocks: 'No blocks yet', banner: 'Banner', goods: 'Goods', unknown: 'Unknown block', more: 'and {n} more' },
};
/** Goods names shown per goods block; the rest are counted. */
const NAMES_SHOWN = 8;
const names = new Map<string, Promise<string>>();

function goodsName(id: string): Promise<string> {
  let pending = names.get(id);
  if (!pending) {
    pending = http
      .get<{ commInfoName?: string } | null>('/api/blade-base/comminfo/detail', { id }, { silent: true })
      .then((g) => g?.commInfoName ?? id, () => id);
    names.set(id, pending);
  }
  return pending;
}

function parse(text: string): Block[] | undefined {
  try {
    const value = JSON.parse(text || '{"blocks":[]}') as { blocks?: unknown };
    return Array.isArray(value?.blocks) ? (value.blocks as Block[]) : undefined;
  } catch {
    return undefined;
  }
}

function GoodsBlock({ block, t }: { block: Block; t: (typeof TEXT)['zh'] }) {
  const ids = (block.goodsIds ?? []).map(String);
  const [shown, setShown] = useState<string[]>([]);
  const key = ids.slice(0, NAMES_SHOWN).join(',');
  useEffect(() => {
    let live = true;
    void Promise.all(key ? key.split(',').map(goodsName) : []).then((list) => live && setShown(list));
    return () => {
      live = false;
    };
  }, [key]);
  return (
    <Card size="small" title={<><Tag color="blue">{t.goods}</Tag>{block.title}</>} data-testid="layout-goods">
      <Flex wrap gap={4}>
        {shown.map((name, i) => <Tag key={i}>{name}</Tag>)}
        {ids.length > NAMES_SHOWN && <Typography.Text type="secondary">{t.more.replace('{n}', String(ids.length))}</Typography.Text>}
      </Flex>
    </Card>
  );
}

export const PageLayoutEditor = memo(function PageLayoutEditor(props: EditorProps) {
  const { id, spec, disabled, invalid, onCommit, onPending } = props;
  const language = useSettings((s) => s.language);
  const t = TEXT[language === 'en' ? 'en' : 'zh'];
  const initial = typeof props.value === 'string' ? props.value : props.value ? JSON.stringify(props.value, null, 2) : '';
  const { local, change, commit } = useLocalValue(initial, onCommit, onPending);
  const blocks = useMemo(() => parse(String(local ?? '')), [local]);
  const maxLength = typeof spec.prop.maxLength === 'number' ? spec.prop.maxLength : undefined;
  return (
    <Flex gap={12} align="stretch" style={{ width: '100%' }}>
      <Input.TextArea
        id={id}
        value={String(local ?? '')}
        disabled={disabled}
        maxLength={maxLength}
        status={invalid ? 'error' : undefined}
        rows={14}
        style={{ fontFamily: 'monospace', flex: 1, minWidth: 0 }}
        onChange={(event) => change(event.target.value)}
        onBlur={() => commit()}
      />
      <div style={{ flex: 1, minWidth: 0, maxHeight: 320, overflow: 'auto' }} data-testid="layout-preview">
        <Typography.Text strong>{t.preview}</Typography.Text>
        {!blocks ? (
          <Typography.Paragraph type="warning">{t.invalid}</Typography.Paragraph>
        ) : !blocks.length ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t.noBlocks} />
        ) : (
          <Flex vertical gap={8} style={{ marginTop: 8 }}>
            {blocks.map((block, i) =>
              block.type === 'banner' ? (
                <Card key={i} size="small" title={<Tag color="purple">{t.banner}</Tag>} data-testid="layout-banner">
                  <Flex gap={6} wrap>
                    {(block.images ?? []).map((src, j) => (
                      <div key={j} style={{ width: 96, height: 54, background: '#f0f0f0', borderRadius: 4, overflow: 'hidden' }}>
                        {/* A link that does not load (yet) leaves the grey box, not a broken-image icon. */}
                        <img src={String(src)} alt="" style={{ width: '100%', height: '100%', objectFit: 'cover' }} onError={(e) => (e.currentTarget.style.visibility = 'hidden')} />
                      </div>
                    ))}
                  </Flex>
                </Card>
              ) : block.type === 'goods' ? (
                <GoodsBlock key={i} block={block} t={t} />
              ) : (
                <Card key={i} size="small"><Tag color="red">{t.unknown}</Tag>{String(block.type ?? '')}</Card>
              ),
            )}
          </Flex>
        )}
      </div>
    </Flex>
  );
});
