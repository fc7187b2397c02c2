/** The comparison: the same 200 fields on the stock @rjsf/antd theme with ajv, as documented. */
import Form from '@rjsf/antd';
import validator from '@rjsf/validator-ajv8';
import type { RJSFSchema } from '@rjsf/utils';
import { benchJsonSchema } from './benchResource.ts';

const schema = benchJsonSchema() as RJSFSchema;

export default function StockForm() {
  return (
    <div style={{ width: 1000, margin: '0 auto' }}>
      <Form schema={schema} validator={validator} showErrorList={false} />
    </div>
  );
}
