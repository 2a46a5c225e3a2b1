/**
 * The fields of a generated form for an object schema (a tool's `inputSchema`, an elicitation's
 * `requestedSchema`), with the validator's errors placed at their fields. The caller owns the
 * value and the buttons.
 */

import { SchemaFormContext } from '../schema-form-context.js';
import { fieldPointers, placeErrors, propertiesOf, resolveSchema } from '../schema-form-model.js';
import type { JsonSchema, UiFieldError } from '../ui-types.js';
import { FieldErrors } from './field-errors.js';
import { ObjectField } from './object-field.js';
import { SchemaField } from './schema-field.js';

export function SchemaForm(props: {
  idPrefix: string;
  schema: JsonSchema;
  value: Record<string, unknown>;
  onChange(next: Record<string, unknown>): void;
  fieldErrors: UiFieldError[];
  onParseError(pointer: string, message: string | undefined): void;
}) {
  const root = resolveSchema(props.schema, props.schema);
  const errors = placeErrors(props.fieldErrors, fieldPointers(root, props.schema, props.value));
  const formErrors = errors.get('');
  return (
    <SchemaFormContext.Provider
      value={{
        idPrefix: props.idPrefix,
        root: props.schema,
        errors,
        reportParseError: props.onParseError,
        Field: SchemaField,
      }}
    >
      <FieldErrors id={`${props.idPrefix}-form`} errors={formErrors} />
      {propertiesOf(root).length === 0 ? (
        <p class="muted">No fields.</p>
      ) : (
        <ObjectField
          label=""
          path={[]}
          schema={root}
          required={true}
          value={props.value}
          onChange={(next) => props.onChange((next ?? {}) as Record<string, unknown>)}
          bare={true}
        />
      )}
    </SchemaFormContext.Provider>
  );
}
