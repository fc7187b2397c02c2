import { useState } from 'react';
import { Button, Checkbox, Flex, Popover, Tooltip } from 'antd';
import SettingOutlined from '@ant-design/icons/es/icons/SettingOutlined';
import type { GridHandle } from './DataGrid.tsx';
import { useRT } from '../common/i18n.ts';

interface ColumnSettingsProps {
  grid: GridHandle | undefined;
  /** Forgets the saved state and rebuilds the columns from the schema. */
  onReset(): void;
  /** Bumped by the grid when columns change, so the checkboxes re-read visibility. */
  version: number;
}

/** Popover listing the data columns with a checkbox each; hidden columns stay hidden per user. */
export function ColumnSettings({ grid, onReset, version }: ColumnSettingsProps) {
  const t = useRT();
  const [, setTick] = useState(0);
  const columns = grid?.columns() ?? [];
  void version;

  const content = (
    <Flex vertical gap={4} style={{ maxHeight: 360, overflowY: 'auto', minWidth: 160 }} data-testid="column-settings">
      {columns.map((column) => (
        <Checkbox
          key={column.id}
          checked={column.visible}
          onChange={(e) => {
            grid?.setColumnVisible(column.id, e.target.checked);
            setTick((n) => n + 1);
          }}
        >
          {column.title}
        </Checkbox>
      ))}
      <Button
        size="small"
        style={{ marginTop: 8 }}
        onClick={() => {
          onReset();
          setTick((n) => n + 1);
        }}
      >
        {t('list.columnsReset')}
      </Button>
    </Flex>
  );

  return (
    <Popover content={content} trigger="click" placement="bottomRight" title={t('list.columns')}>
      <Tooltip title={t('list.columns')}>
        <Button icon={<SettingOutlined />} aria-label={t('list.columns')} data-testid="column-settings-button" />
      </Tooltip>
    </Popover>
  );
}
