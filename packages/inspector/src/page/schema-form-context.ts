/**
 * What every field of one generated form shares: the ids' prefix, the root schema (for `$ref`),
 * the validator's errors placed at their fields, a way for a raw-JSON field to say its text does
 * not parse (the form is not sent then), and the component that renders a nested field. Objects,
 * arrays and `oneOf` hold fields of any kind, and the component that picks a field's kind renders
 * them: reached through here, it is imported once (by the form), and the field components import
 * each other one way.
 */
import { type ComponentType, createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { fieldId } from './schema-form-model.js';
import type { JsonSchema } from './ui-types.js';

export interface SchemaFormContextValue {
  idPrefix: string;
  root: JsonSchema;
  errors: Map<string, string[]>;
  reportParseError(pointer: string, message: string | undefined): void;
  /** Renders one nested field of any kind (`SchemaField`). */
  Field: ComponentType<FieldProps>;
}

export const SchemaFormContext = createContext<SchemaFormContextValue | undefined>(undefined);

export function useSchemaForm(): SchemaFormContextValue {
  const form = useContext(SchemaFormContext);
  if (form === undefined) throw new Error('useSchemaForm: a field was rendered outside a <SchemaForm>.');
  return form;
}

/** The props every field component takes. */
export interface FieldProps {
  /** The text of its label: the property name, exactly (or `name[i]` for an array item). */
  label: string;
  path: Array<string | number>;
  /** Resolved already (no `$ref` at the top). */
  schema: JsonSchema;
  required: boolean;
  value: unknown;
  onChange(next: unknown): void;
}

/** The ARIA of a field's control: its hint and errors, invalid when it has errors. */
export function controlAria(
  id: string,
  errors: string[] | undefined,
  hasHint: boolean,
  required: boolean,
): Record<string, string | undefined> {
  const described = [hasHint ? `${id}-hint` : undefined, errors !== undefined ? `${id}-error` : undefined]
    .filter((part) => part !== undefined)
    .join(' ');
  return {
    'aria-invalid': errors !== undefined ? 'true' : undefined,
    'aria-describedby': described === '' ? undefined : described,
    'aria-required': required ? 'true' : undefined,
  };
}

export function useFieldId(path: Array<string | number>): string {
  const { idPrefix } = useSchemaForm();
  return fieldId(idPrefix, path);
}
