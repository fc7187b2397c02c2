import { useCallback, useEffect, useMemo, useState } from 'react';
import { Button, Card, Descriptions, Empty, Flex, Space, Spin, Tooltip } from 'antd';
import CopyOutlined from '@ant-design/icons/es/icons/CopyOutlined';
import { ApiError, http } from '../../api/http.ts';
import { notifier } from '../../api/notify.ts';
import { evaluate, type Expr } from '../../../shared/expr.ts';
import type { ResourceFile } from '../../../shared/resource.ts';
import { endpointUrl } from '../common/endpoint.ts';
import { formatCell } from '../common/format.ts';
import { useLabel, useRT } from '../common/i18n.ts';
import { columnTitle } from '../common/labels.ts';
import type { Row } from '../common/params.ts';
import { useCan } from '../common/permissions.ts';
import { useDictionaries } from '../common/useDictionary.ts';
import { asCardField, dutyEndpoint, fieldOf, viewsOf, type CardFieldDef, type ColumnDef } from '../common/views.ts';
import { ValueCell } from '../list/cells.tsx';
import { useSettings } from '../../store/settings.ts';
import { actionPermission, isActionVisible, useActionRunner } from '../list/useActionRunner.tsx';

function visible(field: CardFieldDef, row: Row): boolean {
  if (field.visibleIf === undefined) return true;
  try {
    return Boolean(evaluate(field.visibleIf as Expr, row));
  } catch {
    return false;
  }
}

async function copyText(text: string, done: string): Promise<void> {
  await navigator.clipboard.writeText(text);
  notifier().success(done);
}

/** A profile card (staff profile): sections of label/value pairs, copy buttons, guarded actions. */
export default function CardPage({ resource }: { resource: ResourceFile }) {
  const t = useRT();
  const label = useLabel();
  const can = useCan();
  const language = useSettings((s) => s.language);
  const card = viewsOf(resource).card ?? { sections: [] };
  const [row, setRow] = useState<Row | undefined>();
  const [loading, setLoading] = useState(true);
  const [reloadCount, setReloadCount] = useState(0);
  const reload = useCallback(() => setReloadCount((n) => n + 1), []);
  const runner = useActionRunner(resource, reload);
  const endpointPath = card.endpoint ?? dutyEndpoint(resource, 'detail')?.path;
  const allFields = useMemo(() => card.sections.flatMap((s) => s.fields.map(asCardField)), [card.sections]);
  const schemaFields = useMemo(
    () => Object.fromEntries(allFields.map((f) => [f.field, fieldOf(resource, f.field)])),
    [allFields, resource],
  );
  const dictionaries = useDictionaries(schemaFields);

  useEffect(() => {
    if (!endpointPath) return;
    let active = true;
    setLoading(true);
    http.get<Row | null>(endpointUrl(resource, endpointPath), undefined, { silent: true }).then(
      (data) => {
        if (!active) return;
        setRow(data ?? undefined);
        setLoading(false);
      },
      (error: unknown) => {
        if (!active) return;
        setRow(undefined);
        setLoading(false);
        if (error instanceof ApiError && error.code !== 404) notifier().error(error.message);
      },
    );
    return () => {
      active = false;
    };
  }, [resource, endpointPath, reloadCount]);

  const actions = (card.actions ?? []).filter(
    (a) => can(actionPermission(resource, a)) && row && isActionVisible(a, row),
  );

  return (
    <Spin spinning={loading}>
      <Card
        title={card.title ?? label(resource.title, resource.titleEn)}
        extra={
          actions.length > 0 && (
            <Space>
              {actions.map((action) => (
                <Button
                  key={action.key}
                  type="primary"
                  ghost
                  danger={action.danger}
                  onClick={() => runner.run(action, row ? [row] : [])}
                >
                  {label(action.label, action.labelEn)}
                </Button>
              ))}
            </Space>
          )
        }
        data-testid={`card-${resource.resource}`}
      >
        {!row && !loading ? (
          <Empty description={card.emptyText ? label(card.emptyText, card.emptyTextEn) : t('card.empty')} />
        ) : (
          <Flex vertical gap={16}>
            {row &&
              card.sections.map((section, index) => (
                <Descriptions
                  key={section.title ?? index}
                  title={section.title}
                  bordered
                  size="small"
                  column={{ xs: 1, sm: 2, lg: 3 }}
                  items={section.fields
                    .map(asCardField)
                    .filter((field) => visible(field, row))
                    .map((field) => {
                      const format = field.format === 'tag' ? undefined : (field.format as ColumnDef['format']);
                      const column: ColumnDef = { field: field.field, format, tag: field.format === 'tag' };
                      const value = row[field.field];
                      const text = formatCell(schemaFields[field.field], column, value, dictionaries[field.field]);
                      return {
                        key: field.field,
                        label: field.title ?? columnTitle(resource, { field: field.field }, language),
                        children: (
                          <Space size={4}>
                            <ValueCell
                              field={schemaFields[field.field]}
                              column={column}
                              value={value}
                              dictionary={dictionaries[field.field]}
                            />
                            {field.copy && text && (
                              <Tooltip title={t('card.copy')}>
                                <Button
                                  size="small"
                                  type="text"
                                  icon={<CopyOutlined />}
                                  aria-label={t('card.copy')}
                                  onClick={() => void copyText(String(row[field.field] ?? ''), t('card.copied'))}
                                />
                              </Tooltip>
                            )}
                          </Space>
                        ),
                      };
                    })}
                />
              ))}
          </Flex>
        )}
      </Card>
      {runner.element}
    </Spin>
  );
}
