/** One field of a generated form: picks the control for the property's schema. */

import type { FieldProps } from '../schema-form-context.js';
import { useSchemaForm } from '../schema-form-context.js';
import { fieldKind, resolveSchema } from '../schema-form-model.js';
import { ArrayField } from './array-field.js';
import { BooleanField } from './boolean-field.js';
import { ConstField } from './const-field.js';
import { EnumField } from './enum-field.js';
import { MultiEnumField } from './multi-enum-field.js';
import { NumberField } from './number-field.js';
import { ObjectField } from './object-field.js';
import { OneOfField } from './one-of-field.js';
import { RawJsonField } from './raw-json-field.js';
import { StringField } from './string-field.js';

export function SchemaField(props: FieldProps) {
  const { root } = useSchemaForm();
  const schema = resolveSchema(props.schema, root);
  const field = { ...props, schema };
  const name = String(props.path[props.path.length - 1] ?? '');
  switch (fieldKind(schema, name)) {
    case 'string':
      return <StringField {...field} multiline={false} />;
    case 'text':
      return <StringField {...field} multiline={true} />;
    case 'number':
      return <NumberField {...field} integer={false} />;
    case 'integer':
      return <NumberField {...field} integer={true} />;
    case 'boolean':
      return <BooleanField {...field} />;
    case 'enum':
      return <EnumField {...field} />;
    case 'const':
      return <ConstField {...field} />;
    case 'array':
      return <ArrayField {...field} />;
    case 'multiEnum':
      return <MultiEnumField {...field} />;
    case 'object':
      return <ObjectField {...field} />;
    case 'oneOf':
      return <OneOfField {...field} />;
    case 'raw':
      return <RawJsonField {...field} />;
  }
}
