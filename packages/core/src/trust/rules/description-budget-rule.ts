/**
 * Descriptions longer than a budget. A long description costs tokens on every turn and is where a
 * payload hides best (a person skims it, the model reads it all). The default budgets sit above
 * what 99.9 % of published tools use (the catalogue of 8,309 tools: 99.9th percentile 3,911
 * characters for a tool, 1,036 for a parameter).
 */

import type { RuleFinding, ToolRule } from '../tool-rule.js';

/** Finding codes of the `description-budget` rule. */
export const DescriptionBudgetCode = {
  /** The tool's description is longer than its budget. */
  ToolDescription: 'DESCRIPTION_TOO_LONG',
  /** A schema's description (a parameter's, the output's) is longer than its budget. */
  SchemaDescription: 'SCHEMA_DESCRIPTION_TOO_LONG',
} as const;

/** Budgets of the `description-budget` rule, in characters. */
export interface DescriptionBudgets {
  /** The tool's own description. @default 6000 */
  tool?: number;
  /** Each description inside its input or output schema. @default 1500 */
  schema?: number;
}

/** The default budgets. */
export const defaultDescriptionBudgets: Required<DescriptionBudgets> = { tool: 6000, schema: 1500 };

/** A `description-budget` rule with the given budgets. */
export function createDescriptionBudgetRule(budgets: DescriptionBudgets = {}): ToolRule {
  const tool = budgets.tool ?? defaultDescriptionBudgets.tool;
  const schema = budgets.schema ?? defaultDescriptionBudgets.schema;
  return {
    specificationVersion: 'v1',
    scope: 'tool',
    name: 'description-budget',
    codes: Object.values(DescriptionBudgetCode),
    check(checked) {
      const findings: RuleFinding[] = [];
      for (const { field, text, prose } of checked.texts) {
        if (!prose) continue;
        const budget = field === 'description' ? tool : schema;
        if (text.length <= budget) continue;
        findings.push({
          code:
            field === 'description'
              ? DescriptionBudgetCode.ToolDescription
              : DescriptionBudgetCode.SchemaDescription,
          severity: 'low',
          field,
          start: budget,
          end: text.length,
          excerpt: `${text.slice(budget, budget + 80)}…`,
          message: `${text.length} characters, over the budget of ${budget}: costly on every turn, and room to hide text.`,
        });
      }
      return findings;
    },
  };
}

/** The `description-budget` rule with the default budgets. */
export const descriptionBudgetRule: ToolRule = createDescriptionBudgetRule();
